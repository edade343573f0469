// A series' page (/series/{id}): its standings over several tournaments: Chinese.
// Data only (JSON with whole-line comments after `export default`): js/i18n.js merges every area,
// the tests read it as data (tests/strings_data.py). Plain text, always set with textContent.
export default {
  "series_title": "系列赛",
  "se_unknown": "没有系列赛 {id}。",
  "se_standings": "积分榜",
  "se_tournaments": "赛事",
  "se_in_progress": "进行中",
  "se_in_progress_note": "进行中：对阵结束后计入积分",
  "se_finished": "已结束",
  "se_not_started": "未开始",
  "se_champion": "冠军：{name}",
  "se_rank": "名次",
  "se_player": "球员",
  "se_points": "积分",
  "se_played": "参赛",
  "se_no_standings": "本系列赛还没有结束的赛事。",
  "se_csv": "下载 CSV",
  "se_place_points": "{tournament}：第{place}名，{points} 分",
  "se_not_counted": "{tournament}：第{place}名，{points} 分（不计入）",
  "se_best": "每位球员计最好的 {n} 站成绩",
  "se_bands": "积分：{bands}",
  "se_band": "第{place}名 {points}",
  "se_band_from": "第{place}名起 {points}"
};
