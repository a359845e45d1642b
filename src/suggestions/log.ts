// The build log: one line per event of a build, each with the level of the
// context it belongs to (0 the build, 1 a source index, 2 a query of it).
// The log endpoint answers it in JSON Lines.

export type LogLevel = 'INFO' | 'SKIP' | 'ERROR';

export interface LogLine { timestamp: string; level: LogLevel; message: string; contextLevel: number }

export class BuildLog {
  readonly lines: LogLine[] = [];

  add(level: LogLevel, contextLevel: number, message: string): void {
    this.lines.push({ timestamp: new Date().toISOString(), level, message, contextLevel });
  }

  get failed(): boolean {
    return this.lines.some((l) => l.level === 'ERROR');
  }
}

/** One JSON object per line, each line ended by a newline. */
export function toJsonLines(lines: readonly LogLine[]): string {
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}
