// Ratings (/ratings) and the ratings and chances on the commentator screen: English.
// Data only (JSON with whole-line comments after `export default`): js/i18n.js merges every area,
// the tests read it as data (tests/strings_data.py). Plain text, always set with textContent.
export default {
  "ratings_title": "Ratings",
  "rt_discipline": "Discipline",
  "rt_rank": "#",
  "rt_player": "Player",
  "rt_value": "Rating",
  "rt_racks": "Racks",
  "rt_provisional": "provisional",
  "rt_provisional_head": "Provisional (fewer than 100 racks)",
  "rt_more": "Show more",
  "rt_none": "No ratings in this discipline yet.",
  "rt_about": "100 points apart: the higher-rated player wins a rack two times in three. Ratings come from every rack played between people here.",
  // the commentator screen: a player's rating and their chance to win the match from the score
  "rt_rating_n": "Rating {value}",
  "rt_unrated": "Unrated",
  "rt_chance": "{pct}% to win"
};
