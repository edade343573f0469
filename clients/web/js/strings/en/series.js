// A series' page (/series/{id}): its standings over several tournaments: English.
// Data only (JSON with whole-line comments after `export default`): js/i18n.js merges every area,
// the tests read it as data (tests/strings_data.py). Plain text, always set with textContent.
export default {
  "series_title": "Series",
  "se_unknown": "There is no series {id}.",
  "se_standings": "Standings",
  "se_tournaments": "Tournaments",
  "se_in_progress": "In progress",
  "se_in_progress_note": "In progress: counts once its draw is finished",
  "se_finished": "Finished",
  "se_not_started": "Not started",
  "se_champion": "Champion: {name}",
  "se_rank": "#",
  "se_player": "Player",
  "se_points": "Points",
  "se_played": "Events",
  "se_no_standings": "No tournament of this series has finished yet.",
  "se_csv": "Download CSV",
  "se_place_points": "{tournament}: place {place}, {points} pts",
  "se_not_counted": "{tournament}: place {place}, {points} pts (not counted)",
  "se_best": "Each player's best {n} events count",
  "se_bands": "Points: {bands}",
  "se_band": "{place}: {points}",
  "se_band_from": "{place}+: {points}"
};
