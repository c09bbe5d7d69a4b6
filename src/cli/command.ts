/** The CLI's commands. Its own file: help, option parsing and the policy flags all name it, and help imports the flags. */
export type Command = 'lint' | 'validate';
