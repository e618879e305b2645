const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

/** One JSON object per line on stdout, as the api's logs (pino's shape: level, time, msg). */
export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const min = LEVELS[level];
  const write = (lvl: Exclude<LogLevel, 'silent'>) => (obj: object, msg: string) => {
    if (LEVELS[lvl] < min) return;
    const fields = Object.fromEntries(
      Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? { message: v.message, name: v.name } : v]),
    );
    process.stdout.write(
      `${JSON.stringify({ level: LEVELS[lvl], time: Date.now(), ...base, ...fields, msg })}\n`,
    );
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
