/** The options every operator command takes, described once. */
export const DATA_HELP =
  'data folder (env BALCAO_DATA_DIR, default ./data); uses the server running on it, if any'
export const JSON_HELP = 'print one JSON document (also when the output is not a terminal)'
