// Defaults of `dsh-context` options that the command line shows in its help, kept in a module that
// imports nothing, so that starting the command does not load the plugins.

/** The first user message of an inspected session when `--prompt` gives none. */
export const PROBE_PROMPT = '(your first prompt)';

/** DSH's profile when `--profile` gives none. DSH has no default (`dsh` refuses to boot without `--profile`); headless is the one-shot profile the README installs the bundle into. */
export const DEFAULT_DSH_PROFILE = 'headless';
