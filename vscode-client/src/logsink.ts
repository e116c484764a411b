/**
 * The output channel handed to vscode-languageclient. The client writes everything as text
 * lines ("[Error - 10:01:02] message"), and the server's stderr in arbitrary chunks; this turns
 * them into entries of the `evalsubmit` log channel at their real level:
 * - a message keeps its lines together (a traceback from the server is one multi-line entry);
 * - stderr is collected until it goes quiet, so a traceback printed in pieces is one entry;
 * - "Server process exited with code 0" (which the client writes as an error) says what it was:
 *   a restart or a stop the extension asked for (information), or an exit nobody asked for.
 * No `vscode` import: the log channel comes in as an interface.
 */

export interface LevelLog {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  show(preserveFocus?: boolean): void;
  hide(): void;
}

const PREFIX = /^\[(Error|Warn|Info|Debug|Trace|Log)\s*- [^\]]*\] ?/;

export class LogSink {
  readonly name: string;
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  /** Set when the extension stops this sink's server: why ('restart' or 'stop'). */
  expectedStop: 'restart' | 'stop' | undefined;

  constructor(
    private readonly log: LevelLog,
    name = 'evalsubmit',
    private readonly quietMs = 150,
  ) {
    this.name = name;
  }

  /** A line (or several) from the language client. */
  appendLine(value: string): void {
    this.flush();
    const match = PREFIX.exec(value);
    if (!match) {
      this.log.info(value);
      return;
    }
    const message = value.slice(match[0].length);
    const exited = /^Server process exited with code (-?\d+)\.?$/.exec(message);
    if (exited) {
      const reason = this.expectedStop;
      if (exited[1] === '0' && reason === 'restart') {
        this.log.info('The server stopped for a restart.');
      } else if (exited[1] === '0' && reason === 'stop') {
        this.log.info('The server stopped.');
      } else if (exited[1] === '0') {
        this.log.warn('The server process exited (code 0) without being asked to stop.');
      } else {
        this.log.error(`The server process exited with code ${exited[1]}.`);
      }
      return;
    }
    switch (match[1]) {
      case 'Error':
        this.log.error(message);
        break;
      case 'Warn':
        this.log.warn(message);
        break;
      case 'Debug':
        this.log.debug(message);
        break;
      default:
        // Info, Log and Trace (the LSP trace, on when evalsubmit.trace.server asks for it).
        this.log.info(message);
    }
  }

  /** A chunk of the server's stdout/stderr: whole lines, grouped until the stream pauses. */
  append(value: string): void {
    this.pending += value;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.quietMs);
  }

  /** Writes what `append` collected as one entry. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.pending.replace(/\s+$/, '');
    this.pending = '';
    if (!text) {
      return;
    }
    const entry = `[server stderr] ${text}`;
    if (/Traceback \(most recent call last\)|^\w*(Error|Exception):/m.test(text)) {
      this.log.error(entry);
    } else {
      this.log.warn(entry);
    }
  }

  replace(value: string): void {
    this.flush();
    this.log.info(value);
  }

  clear(): void {
    this.flush();
  }

  show(columnOrPreserveFocus?: unknown, preserveFocus?: boolean): void {
    this.log.show(typeof columnOrPreserveFocus === 'boolean' ? columnOrPreserveFocus : preserveFocus);
  }

  hide(): void {
    this.log.hide();
  }

  dispose(): void {
    this.flush();
  }
}
