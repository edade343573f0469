// How the pages show each argument of the hub's notes (last.note_codes): the kind of every argument
// name, as hub/rules/notes.py ARG_KINDS says (tests/rules/test_notes.py checks they are the same).
// Data only (JSON with whole-line comments after `export default`), imported by js/i18n.js.
export default {
  "player": "player",
  "shooter": "player",
  "breaker": "player",
  "fouler": "player",
  "payee": "player",
  "winner": "winner",
  "ball": "number",
  "count": "number",
  "rack": "number",
  "points": "number",
  "event": "number",
  "scores": "numbers",
  "win_type": "win_type",
  "reason": "reason",
  "choice": "choice",
  "penalty": "penalty",
  "scope": "scope",
  "group": "group",
  "loss": "loss"
};
