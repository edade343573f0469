// Ratings (/ratings) and the ratings and chances on the commentator screen: 简体中文.
// Data only (JSON with whole-line comments after `export default`): js/i18n.js merges every area,
// the tests read it as data (tests/strings_data.py). Plain text, always set with textContent.
export default {
  "ratings_title": "等级分",
  "rt_discipline": "项目",
  "rt_rank": "名次",
  "rt_player": "球员",
  "rt_value": "等级分",
  "rt_racks": "局数",
  "rt_provisional": "暂定",
  "rt_provisional_head": "暂定（少于100局）",
  "rt_more": "显示更多",
  "rt_none": "该项目还没有等级分。",
  "rt_about": "相差100分：分高者每三局赢两局。等级分来自本站球员之间打过的每一局。",
  // the commentator screen: a player's rating and their chance to win the match from the score
  "rt_rating_n": "等级分 {value}",
  "rt_unrated": "无等级分",
  "rt_chance": "胜率 {pct}%"
};
