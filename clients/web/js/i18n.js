// Strings for every screen, zh-CN and en. Keys are stable; values are plain text only
// (they are always set with textContent, never parsed as HTML).

const STRINGS = {
  en: {
    app: "cuehub",
    lang_switch: "中文",
    lang_switch_title: "切换到中文",
    // connection
    conn_connecting: "Connecting…",
    conn_live: "Live",
    conn_offline: "Offline — reconnecting",
    conn_auth: "Waiting for table token",
    queued_n: "{n} unsent",
    // disciplines
    d_golden_nine: "Chinese nine-ball",
    d_wpa_nine: "Nine-ball",
    d_chinese_eight: "Chinese eight-ball",
    d_chase_nine: "Chase-points nine-ball",
    // status / phase
    s_scheduled: "Scheduled",
    s_live: "Live",
    s_finished: "Finished",
    p_lag: "Lag",
    p_break: "Break",
    p_play: "In play",
    p_decision: "Decision",
    p_over: "Match over",
    // terms
    rack: "Rack",
    rack_n: "Rack {n}",
    racks: "Racks",
    score: "Score",
    points: "Points",
    race_to: "Race to {n}",
    n_racks: "{n} racks",
    n_minutes: "{n} min",
    at_table: "At the table",
    to_break: "To break",
    breaker: "Breaker",
    ball_in_hand: "Ball in hand",
    bih_anywhere: "Ball in hand",
    bih_behind_line: "Ball in hand (behind the line)",
    shot_clock: "Shot clock",
    match_clock: "Match clock",
    paused: "Paused",
    extension_used: "extended",
    extensions_left: "Extensions",
    winner: "Winner",
    wins_match: "{name} wins the match",
    draw: "Shared top",
    balls_on_table: "Balls on the table",
    table_open: "Table open",
    solids: "Solids",
    stripes: "Stripes",
    upper: "上家 (previous)",
    lower: "下家 (next)",
    fouls_in_rack: "Fouls this rack",
    consecutive_fouls: "Consecutive fouls",
    warnings: "Warnings",
    win_ball: "Win ball",
    no_match: "No match on this table",
    waiting_start: "Waiting for the match to start",
    loading: "Loading…",
    not_found: "Not found",
    // win types / reasons
    w_big_gold: "Big gold (大金)",
    w_small_gold: "Small gold (小金)",
    w_normal: "Win (普胜)",
    r_win_ball: "win ball",
    r_fouls: "three fouls",
    r_loss: "lost by rule",
    r_penalty: "penalty",
    r_concession: "conceded",
    r_rail_safeties: "rail safeties",
    r_race: "race won",
    r_racks: "after all racks",
    r_points: "on points",
    r_time: "on time",
    r_disqualification: "disqualification",
    // fouls
    f_scratch: "scratch (cue ball pocketed)",
    f_cue_ball_off_table: "cue ball off the table",
    f_no_contact: "no contact",
    f_wrong_ball_first: "wrong ball first",
    f_no_rail: "no rail after contact",
    f_ball_off_table: "ball off the table",
    f_bad_break: "illegal break",
    f_time: "time foul",
    f_nine_on_free_ball: "9 on a free ball",
    f_double_hit: "double hit",
    f_push_shot: "push shot",
    f_touched_ball: "touched a ball",
    f_feet_off_floor: "feet off the floor",
    f_balls_moving: "shot while balls moving",
    f_illegal_jump: "illegal jump",
    f_weak_break: "weak break",
    f_not_trying: "not trying to hit",
    f_other: "other foul",
    f_break_position: "break position",
    foul: "Foul",
    // pending options
    o_play: "Play (table as it lies)",
    o_pass: "Pass (opponent shoots)",
    o_pass_to: "Pass ({name} shoots)",
    o_rerack_self: "Rerack, I break",
    o_rerack_other: "Rerack, breaker breaks again",
    o_break: "Break",
    o_behind_line: "Ball in hand behind the line",
    // command kinds
    k_start: "Start",
    k_lag: "Lag",
    k_shot: "Stroke",
    k_decision: "Decision",
    k_extension: "Extension",
    k_foul: "Called foul",
    k_penalty: "Penalty",
    k_concede: "Concession",
    k_stalemate: "Stalemate",
    k_timeout: "Timeout",
    k_pause: "Pause",
    k_resume: "Resume",
    k_undo: "Undo",
    k_clock_expired: "Shot clock expired",
    k_match_time_expired: "Match time over",
    // penalties
    pen_intentional_foul: "Intentional foul",
    pen_unsportsmanlike: "Unsportsmanlike conduct",
    pen_device: "Electronic device",
    pen_forfeit_rack: "Forfeit the rack",
    pen_forfeit_match: "Forfeit the match",
    // rejects, in plain words
    rej_bad_command: "The hub could not read that entry.",
    rej_not_your_turn: "That player may not do that now — check who is at the table.",
    rej_decision_pending: "A decision is waiting: answer it first.",
    rej_no_decision_pending: "There is no decision to answer.",
    rej_bad_choice: "That choice is not one of the options.",
    rej_not_allowed: "The rules do not allow that now.",
    rej_match_over: "The match is over.",
    rej_not_started: "The match has not started yet.",
    rej_already_started: "The match has already started.",
    rej_version_conflict: "The table changed meanwhile; look again and re-enter.",
    rej_unknown_match: "That match is not known to the hub.",
    rej_nothing_to_undo: "Nothing to undo.",
    rej_generic: "Rejected.",
    rejected: "Rejected",
    accepted: "Accepted",
    // tablet
    tablet_title: "Referee tablet",
    token_prompt: "Table token",
    token_help: "Enter the table token shown when this table was created.",
    token_save: "Connect",
    token_bad: "The hub refused this token. Enter it again.",
    token_forget: "Change token",
    first_contact: "First contact",
    pocketed: "Pocketed",
    off_table: "Off the table",
    none: "None",
    cue_ball: "Cue ball",
    cue_table: "On the table",
    cue_pocketed: "Pocketed",
    cue_off_table: "Off the table",
    rail: "A ball reached a rail",
    break_rails: "Balls to a rail on the break",
    break_crossings: "Head-string crossings",
    break_position: "Cue ball over the head string",
    called_fouls: "Called fouls",
    flags: "Flags",
    push_out: "Push-out",
    snooker: "Snooker left",
    rail_safety: "Rail safety",
    enter_stroke: "Enter stroke",
    clear_stroke: "Clear",
    stroke_for: "Stroke by {name}",
    decision_for: "{name} chooses",
    start_match: "Start the match",
    breaks_first: "{name} breaks",
    lag_won: "{name} won the lag",
    order_label: "Order {order}",
    actions: "Actions",
    extension: "Extension",
    pause: "Pause",
    resume: "Resume",
    penalty: "Penalty",
    concede_rack: "Concede rack",
    concede_match: "Concede match",
    stalemate: "Stalemate",
    undo: "Undo",
    call_foul: "Call foul",
    timeout: "Timeout",
    player: "Player",
    reason: "Reason",
    confirm: "Confirm",
    cancel: "Cancel",
    confirm_undo: "Undo the last entry? The match goes back as if it never happened.",
    confirm_stalemate: "Declare a stalemate? The rack is replayed and its foul points are taken back.",
    confirm_concede: "{name} concedes the {scope}?",
    confirm_penalty: "{type} against {name}?",
    scope_rack: "rack",
    scope_match: "match",
    sent: "Sent",
    queued: "Saved; will send when the connection is back",
    log: "Recent entries",
    // board / commentator / watch / index
    board_title: "Scoreboard",
    commentator_title: "Commentator",
    watch_title: "Live",
    index_title: "Live matches",
    tournaments: "Tournaments",
    scoreboard: "Scoreboard",
    watch: "Watch",
    commentate: "Commentary",
    no_live: "No match is live right now.",
    table: "Table",
    stroke_log: "Stroke log",
    stats: "Statistics",
    rack_history: "Rack history",
    st_break_and_runs: "Break and runs",
    st_table_runs: "Table runs",
    st_golden_breaks: "Golden breaks",
    st_fouls: "Fouls",
    st_loss_of_chance: "Loss of chance",
    voided: "voided",
    last_event: "Last",
    first_hit: "hit {n} first",
    no_hit: "no contact",
    potted: "potted {list}",
    off: "{list} off the table",
    legal: "legal",
    nothing_yet: "Nothing yet.",
    // last.notes: templates for the hub's notes (see NOTE_PATTERNS); {p} {q} are player names
    nt_golden_break: "Golden break",
    nt_rail_safety_n: "Rail safety {n} of 2 allowed",
    nt_snooker_pass: "Snooker: the next player may pass",
    nt_third_rail_safety: "Third rail safety: all three are fouls and the rack is lost",
    nt_chase_third_foul: "Third consecutive foul: the 上家 (previous player) wins the rack",
    nt_chase_two_fouls: "Warning: {p} has two consecutive fouls; a third loses the rack",
    nt_chase_pass: "{p} passes: {q} shoots again; {p} pays for that inning",
    nt_rebreak_failed: "The warned rebreak failed again: the rack is lost",
    nt_not_trying: "Not trying to win: a foul and a warning",
    nt_rack_lost: "{l}: the rack is lost",
    nt_l_not_trying: "Second not-trying foul in the rack",
    nt_l_eight_foul: "The 8 pocketed on a foul",
    nt_l_eight_early: "The 8 pocketed before the group was cleared",
    nt_l_eight_off: "The 8 left the table",
    nt_takes_group: "{p} takes {g}",
    nt_rebreaks_warned: "{p} rebreaks, warned",
    nt_respotted: "The {n} is respotted",
    nt_rerack: "Rerack: {p} breaks",
    nt_stalemate: "Stalemate: the rack is replayed",
    nt_rack_to: "Rack {n} to {p} ({w}, {r})",
    nt_tie: "Tie: one extra rack decides the match (lag)",
    nt_match_over: "Match over: {p} ({r})",
    nt_passes: "{p} passes: {q} shoots",
    nt_wins_lag: "{p} wins the lag",
    nt_clock_expired: "Shot clock expired",
    nt_penalty: "Penalty: {x}",
    nt_concedes: "{p} concedes the {s}",
    nt_extension: "Extension",
    nt_match_time_up: "Match time is up",
    nt_chooses_break: "{p} chooses: {c}; {q} breaks",
    nt_chooses: "{p} chooses: {c}",
    nt_break_position: "Break position: warning (next time a foul)",
    nt_loss_of_chance: "Loss of chance: fewer than four crossings",
    nt_eight_gold: "The 8 in a gold inning is no win: the 9 must follow",
    nt_third_foul_rack: "Third foul in this rack: the rack goes to the opponent",
    nt_second_foul_rack: "Second foul in this rack",
    nt_unsportsmanlike: "Unsportsmanlike conduct: warning",
    nt_wpa_third_foul: "Third consecutive foul: the rack is lost",
    nt_wpa_two_fouls: "{p} is on two fouls: a third consecutive foul loses the rack",
    nt_undone: "Entry #{n} undone",
    nt_foul_pays: "Foul: {p} pays {n} to {q}",
    nt_foul_gains: "Foul: {p} +{n}",
    nt_push_out: "Push-out: the opponent chooses to play or pass",
  },
  "zh-CN": {
    app: "cuehub",
    lang_switch: "EN",
    lang_switch_title: "Switch to English",
    conn_connecting: "连接中…",
    conn_live: "直播中",
    conn_offline: "已断开，正在重连",
    conn_auth: "等待球台令牌",
    queued_n: "{n} 条未发送",
    d_golden_nine: "中式九球",
    d_wpa_nine: "美式九球",
    d_chinese_eight: "中式八球",
    d_chase_nine: "追分九球",
    s_scheduled: "未开始",
    s_live: "进行中",
    s_finished: "已结束",
    p_lag: "比球",
    p_break: "开球",
    p_play: "进行中",
    p_decision: "待选择",
    p_over: "比赛结束",
    rack: "局",
    rack_n: "第{n}局",
    racks: "局数",
    score: "比分",
    points: "积分",
    race_to: "抢{n}",
    n_racks: "{n}局",
    n_minutes: "{n}分钟",
    at_table: "击球",
    to_break: "开球",
    breaker: "开球方",
    ball_in_hand: "自由球",
    bih_anywhere: "自由球",
    bih_behind_line: "自由球（开球线后）",
    shot_clock: "击球计时",
    match_clock: "比赛计时",
    paused: "暂停",
    extension_used: "已加时",
    extensions_left: "加时",
    winner: "胜者",
    wins_match: "{name} 赢得比赛",
    draw: "并列第一",
    balls_on_table: "台面球",
    table_open: "开放球台",
    solids: "全色",
    stripes: "花色",
    upper: "上家",
    lower: "下家",
    fouls_in_rack: "本局犯规",
    consecutive_fouls: "连续犯规",
    warnings: "警告",
    win_ball: "胜利球",
    no_match: "本台暂无比赛",
    waiting_start: "等待比赛开始",
    loading: "加载中…",
    not_found: "未找到",
    w_big_gold: "大金",
    w_small_gold: "小金",
    w_normal: "普胜",
    r_win_ball: "打进胜利球",
    r_fouls: "三次犯规",
    r_loss: "判负",
    r_penalty: "处罚",
    r_concession: "认输",
    r_rail_safeties: "贴库防守",
    r_race: "先到局数",
    r_racks: "局数打满",
    r_points: "按积分",
    r_time: "时间到",
    r_disqualification: "取消资格",
    f_scratch: "母球落袋",
    f_cue_ball_off_table: "母球出台",
    f_no_contact: "空杆",
    f_wrong_ball_first: "先碰错球",
    f_no_rail: "未碰库",
    f_ball_off_table: "目标球出台",
    f_bad_break: "开球犯规",
    f_time: "超时犯规",
    f_nine_on_free_ball: "自由球打进9号",
    f_double_hit: "连击",
    f_push_shot: "推杆",
    f_touched_ball: "触球",
    f_feet_off_floor: "双脚离地",
    f_balls_moving: "球未停击球",
    f_illegal_jump: "非法跳球",
    f_weak_break: "开球力量不足",
    f_not_trying: "无意击球",
    f_other: "其他犯规",
    f_break_position: "开球位置",
    foul: "犯规",
    o_play: "接打（球型不动）",
    o_pass: "让对方打",
    o_pass_to: "让回（{name} 击球）",
    o_rerack_self: "重新摆球，我开球",
    o_rerack_other: "重新摆球，对方开球",
    o_break: "开球",
    o_behind_line: "开球线后自由球",
    k_start: "开始",
    k_lag: "比球",
    k_shot: "击球",
    k_decision: "选择",
    k_extension: "加时",
    k_foul: "判犯规",
    k_penalty: "处罚",
    k_concede: "认输",
    k_stalemate: "僵局",
    k_timeout: "暂停（选手）",
    k_pause: "暂停",
    k_resume: "继续",
    k_undo: "撤销",
    k_clock_expired: "击球超时",
    k_match_time_expired: "比赛时间到",
    pen_intentional_foul: "故意犯规",
    pen_unsportsmanlike: "违反体育道德",
    pen_device: "电子设备",
    pen_forfeit_rack: "判负本局",
    pen_forfeit_match: "判负全场",
    rej_bad_command: "服务器无法识别这次录入。",
    rej_not_your_turn: "现在不是该选手操作 — 请确认击球方。",
    rej_decision_pending: "还有待选择的事项，请先回答。",
    rej_no_decision_pending: "现在没有需要选择的事项。",
    rej_bad_choice: "该选项无效。",
    rej_not_allowed: "规则现在不允许这样做。",
    rej_match_over: "比赛已结束。",
    rej_not_started: "比赛尚未开始。",
    rej_already_started: "比赛已经开始。",
    rej_version_conflict: "台面状态已变化，请核对后重新录入。",
    rej_unknown_match: "服务器上没有这场比赛。",
    rej_nothing_to_undo: "没有可撤销的内容。",
    rej_generic: "被拒绝。",
    rejected: "被拒绝",
    accepted: "已确认",
    tablet_title: "裁判平板",
    token_prompt: "球台令牌",
    token_help: "请输入创建球台时显示的令牌。",
    token_save: "连接",
    token_bad: "令牌被拒绝，请重新输入。",
    token_forget: "更换令牌",
    first_contact: "首先碰到",
    pocketed: "进袋",
    off_table: "出台",
    none: "无",
    cue_ball: "母球",
    cue_table: "在台面",
    cue_pocketed: "落袋",
    cue_off_table: "出台",
    rail: "有球碰库",
    break_rails: "开球碰库球数",
    break_crossings: "过开球线球数",
    break_position: "开球母球压线",
    called_fouls: "裁判判罚",
    flags: "标记",
    push_out: "推球",
    snooker: "做障碍",
    rail_safety: "贴库防守",
    enter_stroke: "录入击球",
    clear_stroke: "清除",
    stroke_for: "{name} 击球",
    decision_for: "{name} 选择",
    start_match: "开始比赛",
    breaks_first: "{name} 开球",
    lag_won: "{name} 比球获胜",
    order_label: "顺序 {order}",
    actions: "操作",
    extension: "加时",
    pause: "暂停",
    resume: "继续",
    penalty: "处罚",
    concede_rack: "认输本局",
    concede_match: "认输全场",
    stalemate: "僵局",
    undo: "撤销",
    call_foul: "判犯规",
    timeout: "选手暂停",
    player: "选手",
    reason: "原因",
    confirm: "确认",
    cancel: "取消",
    confirm_undo: "撤销上一条记录？比赛将恢复到它发生之前。",
    confirm_stalemate: "判定僵局？本局重赛，本局犯规分收回。",
    confirm_concede: "{name} 认输{scope}？",
    confirm_penalty: "对 {name} 判罚：{type}？",
    scope_rack: "本局",
    scope_match: "全场",
    sent: "已发送",
    queued: "已保存，恢复连接后发送",
    log: "最近记录",
    board_title: "记分牌",
    commentator_title: "解说",
    watch_title: "直播",
    index_title: "正在进行的比赛",
    tournaments: "赛事",
    scoreboard: "记分牌",
    watch: "观看",
    commentate: "解说",
    no_live: "目前没有进行中的比赛。",
    table: "球台",
    stroke_log: "击球记录",
    stats: "技术统计",
    rack_history: "每局记录",
    st_break_and_runs: "一杆清台（开球）",
    st_table_runs: "接清台",
    st_golden_breaks: "开球黄金九",
    st_fouls: "犯规",
    st_loss_of_chance: "开球失机",
    voided: "已撤销",
    last_event: "最新",
    first_hit: "先碰 {n} 号",
    no_hit: "未碰球",
    potted: "打进 {list}",
    off: "{list} 出台",
    legal: "合法",
    nt_golden_break: "开球黄金九",
    nt_rail_safety_n: "贴库防守第{n}次（每局限2次）",
    nt_snooker_pass: "做障碍：下一位选手可选择让回",
    nt_third_rail_safety: "第三次贴库防守：三次均判犯规，本局判负",
    nt_chase_third_foul: "连续第三次犯规：上家赢得本局",
    nt_chase_two_fouls: "警告：{p} 已连续两次犯规，再犯本局判负",
    nt_chase_pass: "{p} 让回：{q} 再打一轮，本轮由 {p} 支付",
    nt_rebreak_failed: "警告后重新开球仍不合格：本局判负",
    nt_not_trying: "无意击球：犯规并警告",
    nt_rack_lost: "{l}：本局判负",
    nt_l_not_trying: "本局第二次无意击球",
    nt_l_eight_foul: "犯规时打进8号球",
    nt_l_eight_early: "本组球未清完打进8号球",
    nt_l_eight_off: "8号球出台",
    nt_takes_group: "{p} 选定{g}球",
    nt_rebreaks_warned: "{p} 重新开球（已警告）",
    nt_respotted: "{n}号球复位",
    nt_rerack: "重新摆球：{p} 开球",
    nt_stalemate: "僵局：本局重赛",
    nt_rack_to: "第{n}局 {p} 胜（{w}，{r}）",
    nt_tie: "平分：加赛一局决胜（比球）",
    nt_match_over: "比赛结束：{p}（{r}）",
    nt_passes: "{p} 让球：{q} 击球",
    nt_wins_lag: "{p} 比球获胜",
    nt_clock_expired: "击球超时",
    nt_penalty: "处罚：{x}",
    nt_concedes: "{p} 认输{s}",
    nt_extension: "加时",
    nt_match_time_up: "比赛时间到",
    nt_chooses_break: "{p} 选择：{c}；{q} 开球",
    nt_chooses: "{p} 选择：{c}",
    nt_break_position: "开球位置：警告（再犯判犯规）",
    nt_loss_of_chance: "开球失机：过线球不足四颗",
    nt_eight_gold: "金球回合打进8号不算胜：须继续打进9号",
    nt_third_foul_rack: "本局第三次犯规：本局判给对手",
    nt_second_foul_rack: "本局第二次犯规",
    nt_unsportsmanlike: "违反体育道德：警告",
    nt_wpa_third_foul: "连续第三次犯规：本局判负",
    nt_wpa_two_fouls: "{p} 已连续两次犯规：再犯本局判负",
    nt_undone: "第{n}条记录已撤销",
    nt_foul_pays: "犯规：{p} 付给 {q} {n}分",
    nt_foul_gains: "犯规：{p} +{n}分",
    nt_push_out: "推球：对手选择接打或让回",
    nothing_yet: "暂无。",
  },
};

const KEY = "cuehub.lang";

function detect() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && STRINGS[normalize(q)]) return normalize(q);
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && STRINGS[saved]) return saved;
  } catch (_) { /* storage may be blocked */ }
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

function normalize(code) {
  return String(code).toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

let current = detect();
const listeners = new Set();

export function lang() { return current; }

export function setLang(code) {
  current = normalize(code);
  try { localStorage.setItem(KEY, current); } catch (_) { /* ignore */ }
  document.documentElement.lang = current;
  applyI18n(document);
  for (const fn of listeners) fn(current);
}

export function onLangChange(fn) { listeners.add(fn); }

/** Translate `key`, filling `{name}` placeholders from `vars`. Unknown keys fall back
 * to English, then to `fallback` (or the key itself). */
export function t(key, vars = {}, fallback) {
  let s = STRINGS[current][key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) s = fallback !== undefined ? fallback : key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** Translate a code with a prefix, e.g. tc("f", "scratch"); unknown codes show as-is. */
export function tc(prefix, code) {
  if (code === null || code === undefined) return "";
  return t(`${prefix}_${code}`, {}, String(code));
}

/** Fill every [data-i18n] element's text (and [data-i18n-title] titles). */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** The language switch every page carries. */
export function langSwitch() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "lang-switch";
  b.id = "lang-switch";
  const paint = () => { b.textContent = t("lang_switch"); b.title = t("lang_switch_title"); };
  paint();
  b.addEventListener("click", () => setLang(current === "en" ? "zh-CN" : "en"));
  onLangChange(paint);
  return b;
}

document.documentElement.lang = current;

// ------------------------------------------------------------------ the hub's notes
// `last.notes` are short English strings made by the rules (hub/rules: note.append). Known
// shapes are matched here and drawn in the page's language, player ids turned into names;
// anything else (a note added later, an id that is not a player) is shown exactly as sent.
// Slots: P player id, P? player id or "shared top", N number, W win type, R reason,
// C choice, X penalty type, S scope, G group, L chinese_eight loss reason.
const NOTE_PATTERNS = [
  ["golden_break", "golden break"],
  ["rail_safety_n", "rail safety {n:N} of 2 allowed"],
  ["snooker_pass", "snooker: the next player may pass"],
  ["third_rail_safety", "third rail safety: all three are fouls and the rack is lost"],
  ["chase_third_foul", "third consecutive foul: the 上家 wins the rack"],
  ["chase_two_fouls", "warning: {p:P} has two consecutive fouls; a third loses the rack"],
  ["chase_pass", "{p:P} passes: {q:P} shoots again; {p2:P} pays for that inning"],
  ["rebreak_failed", "the warned rebreak failed again: the rack is lost"],
  ["not_trying", "not trying to win: a foul and a warning"],
  ["rack_lost", "{l:L}: the rack is lost"],
  ["takes_group", "{p:P} takes {g:G}"],
  ["rebreaks_warned", "{p:P} rebreaks, warned"],
  ["respotted", "the {n:N} is respotted"],
  ["rerack", "rerack: {p:P} breaks"],
  ["stalemate", "stalemate: the rack is replayed"],
  ["rack_to", "rack {n:N} to {p:P} ({w:W}, {r:R})"],
  ["tie", "tie: one extra rack decides the match (lag)"],
  ["match_over", "match over: {p:P?} ({r:R})"],
  ["wins_lag", "{p:P} wins the lag"],
  ["clock_expired", "shot clock expired"],
  ["penalty", "penalty: {x:X}"],
  ["concedes", "{p:P} concedes the {s:S}"],
  ["extension", "extension"],
  ["match_time_up", "match time is up"],
  ["chooses_break", "{p:P} chooses to {c:C}: {q:P} breaks"],
  ["chooses", "{p:P} chooses {c:C}"],
  ["passes", "{p:P} passes: {q:P} shoots"],
  ["break_position", "break position: warning (next time a foul)"],
  ["loss_of_chance", "loss of chance: fewer than four crossings"],
  ["eight_gold", "the 8 in a gold inning is no win: the 9 must follow"],
  ["third_foul_rack", "third foul in this rack: the rack goes to the opponent"],
  ["second_foul_rack", "second foul in this rack"],
  ["unsportsmanlike", "unsportsmanlike conduct: warning"],
  ["wpa_third_foul", "third consecutive foul: the rack is lost"],
  ["wpa_two_fouls", "{p:P} is on two fouls: a third consecutive foul loses the rack"],
  ["undone", "event {n:N} undone"],
  ["foul_pays", "foul: {p:P} pays {n:N} to {q:P}"],
  ["foul_gains", "foul: {p:P} +{n:N}"],
  ["push_out", "push-out: the opponent chooses to play or pass"],
];

const LOSS_REASONS = {
  "second not-trying foul in the rack": "nt_l_not_trying",
  "the 8 pocketed on a foul": "nt_l_eight_foul",
  "the 8 pocketed before the group was cleared": "nt_l_eight_early",
  "the 8 left the table": "nt_l_eight_off",
};

const escapeRe = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const SLOT_RE = { P: "(.+?)", "P?": "(.+?)", N: "(\\d+)", G: "(solids|stripes)", L: `(${Object.keys(LOSS_REASONS).map(escapeRe).join("|")})` };

const COMPILED = NOTE_PATTERNS.map(([key, pattern]) => {
  const slots = [];
  let re = "";
  let rest = pattern;
  for (const m of pattern.matchAll(/\{(\w+):([A-Z]\??)\}/g)) {
    const at = rest.indexOf(m[0]);
    re += escapeRe(rest.slice(0, at)) + (SLOT_RE[m[2]] || "([A-Za-z_]+)");
    rest = rest.slice(at + m[0].length);
    slots.push([m[1].replace(/\d+$/, ""), m[2]]);
  }
  return { key, re: new RegExp(`^${re}${escapeRe(rest)}$`), slots };
});

/** One of the hub's notes in the page's language. `nameOf(id)` gives a player's name, or
 * null when `id` is not a player of the match. Unknown notes come back unchanged. */
export function noteText(note, nameOf = () => null) {
  const raw = String(note);
  for (const { key, re, slots } of COMPILED) {
    const m = raw.match(re);
    if (!m) continue;
    const vars = {};
    let ok = true;
    slots.forEach(([name, type], i) => {
      const v = m[i + 1];
      let out;
      if (type === "P" || type === "P?") {
        out = nameOf(v);
        if ((out === null || out === undefined) && type === "P?" && v === "shared top") out = t("draw");
      } else if (type === "N") out = v;
      else if (type === "W") out = tc("w", v);
      else if (type === "R") out = tc("r", v);
      else if (type === "C") out = tc("o", v);
      else if (type === "X") out = tc("pen", v);
      else if (type === "S") out = t(`scope_${v}`, {}, v);
      else if (type === "G") out = t(v);
      else if (type === "L") out = t(LOSS_REASONS[v]);
      if (out === null || out === undefined) ok = false;
      else vars[name] = out;
    });
    if (ok) return t(`nt_${key}`, vars);
  }
  return raw;
}
