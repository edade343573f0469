// The tablet's stroke entry and its Undo. One entry, one stroke: "Enter stroke" sends the stroke
// once (its id) and locks the form until the hub answers; a second tap of a double tap finds the
// form locked, or a fresh untouched form that ignores it. Undo names what it removes (the hub's
// latest undoable event, or the last entry not sent yet, taken off the tablet), and an undone
// stroke comes back on the form. `tab` is the page's state and actions (tablet.js).
import { t } from "./i18n.js";
import { serverNow, getJSON } from "./live.js";
import { el, fill, playerName, memberDue, confirmDialog, lastText } from "./ui.js";
import { newForm, formFromShot, openQuestion, toCommand, strokeFormNodes } from "./stroke_form.js";
import { entryText } from "./entries.js";
import { racksScored } from "./disciplines.js";
import { DOUBLE_TAP_MS } from "./tablet-racks.js";

export const strokePanel = el("section", { class: "card stroke hidden", id: "stroke" });

let lastEntryAt = 0;

export function strokeVisible(tab) {
  const { match } = tab;
  if (!match || match.status !== "live" || !match.rack || racksScored(match)) return false;
  if (tab.queuedStrokes().length) return true; // the turn is not known: the next stroke may still be entered
  return ["break", "play"].includes(match.rack.phase) && !!match.rack.shooter;
}

export function renderStroke(tab) {
  const { match, form, lock, named } = tab;
  const show = strokeVisible(tab) && form;
  strokePanel.classList.toggle("hidden", !show);
  if (!show) return;
  const ctx = tab.formContext();
  const r = match.rack;
  const known = ctx.phaseKnown;
  const due = known ? memberDue(match) : null; // doubles: the member due, by name
  const title = known
    ? `${due ? t("stroke_for_member", { member: due.name, name: playerName(match, r.shooter) })
      : t("stroke_for", { name: playerName(match, r.shooter) })}${ctx.phase === "break" ? ` · ${t("p_break")}` : ""}`
    : t("stroke_unknown_turn");
  const note = known ? "" : t("stroke_unknown_note", { name: playerName(match, r.shooter) || "—" });
  strokePanel.classList.toggle("locked", !!lock);
  fill(strokePanel, strokeFormNodes({
    form, ctx, title: named(title), note: note ? named(note) : "", locked: !!lock, lockLabel: t("sending"),
    onChange: () => renderStroke(tab),
    onEnter: () => enterStroke(tab),
    onClear: () => { tab.form = newForm(ctx); renderStroke(tab); },
  }));
}

function enterStroke(tab) {
  const { match, session, form } = tab;
  if (!strokeVisible(tab) || tab.lock || !form) return;
  const ctx = tab.formContext();
  // A fresh form always has a question open (a fact whose default would decide): a tap asks it.
  if (openQuestion(form, ctx)) { form.asking = true; renderStroke(tab); return; }
  // The second tap of a double tap lands on the fresh form the first one left: never sent.
  if (!form.touched && Date.now() - lastEntryAt < DOUBLE_TAP_MS) return;
  const cmd = toCommand(form, ctx);
  cmd.entered_at = Math.round(serverNow());
  if (ctx.phaseKnown && tab.knowsTheTurn()) cmd.player = match.rack.shooter;
  lastEntryAt = Date.now();
  const online = session.ready && !session.queue().length;
  const env = tab.queueCommand(cmd);
  tab.sentForms.set(env.id, { form, key: tab.formKey });
  form.asking = false;
  if (online) tab.lock = { id: env.id }; // the form shows "Sending…" until the hub answers
  else tab.form = newForm(tab.formContext());
  tab.render();
}

// ---- undo: it names what it removes, and a stroke comes back on the form
const NEVER_UNDONE = new Set(["undo", "match_time_expired", "link_lost", "link_restored"]);

function latestUndoable(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!e.voided && !NEVER_UNDONE.has(e.kind)) return e;
  }
  return null;
}

export async function undoClicked(tab) {
  const { match, over, session, named } = tab;
  const unsent = session.lastUnsent();
  if (unsent) {
    // Not sent yet: it is taken off the tablet, and never reaches the hub.
    if (!(await confirmDialog(named(t("confirm_remove_unsent", { entry: entryText(unsent.command, match) }))))) return;
    if (session.discard(unsent.id)) {
      tab.logUpdate(unsent.id, { status: "removed", kind: "info" });
      tab.paintQueue();
      const key = tab.situationKey(match);
      if (unsent.command.kind === "shot") {
        tab.formKey = key;
        const ctx = tab.formContext();
        tab.form = formFromShot(unsent.command, ctx);
      }
      tab.render();
    }
    return;
  }
  // On "Match over" the finished match is the one undone (it reopens; the hub takes the next match
  // called to this table back off it), not the next one.
  const subject = over || match;
  if (tab.deskDecided(subject)) { tab.showReject(t("tl_desk_only")); return; } // the desk's to undo, not a stroke's
  let target = null;
  let version = subject ? subject.version : null;
  if (session.ready && subject) {
    try {
      const { events } = await getJSON(`/api/matches/${encodeURIComponent(subject.id)}/events?since=0`);
      target = latestUndoable(events || []);
      version = events && events.length ? events[events.length - 1].version : 0;
    } catch (_) { /* named from the projection below */ }
  }
  let text;
  if (target) text = t("confirm_undo_entry", { n: target.version, entry: entryText({ kind: target.kind, ...target.data }, subject) });
  else if (session.ready) text = t("confirm_undo_nothing");
  else text = t("confirm_undo_offline", { entry: lastText(subject) || "—" });
  tab.undoneHere = subject ? subject.id : null;
  const env = await tab.send({ kind: "undo" }, { confirmText: text, expectedVersion: version, matchId: subject ? subject.id : null });
  if (!env) tab.undoneHere = null;
  if (env && target) tab.undoTargets.set(env.id, target);
}
