/** The seed `quarry generate` and the demo use unless told otherwise (a module of its own, so the command line can show it without loading the generator). */
export const DEFAULT_SEED = 20240601;
