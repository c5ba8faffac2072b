/** Every stop signal and the exit it must give: 128 + its number, the same for every command. */
export const STOP_SIGNALS = [
  ['SIGHUP', 129],
  ['SIGQUIT', 131],
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const
