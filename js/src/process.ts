/**
 * Child processes that never outlive the test run.
 *
 * Every child runs in a process group of its own (`detached`), so stopping it stops everything it
 * started. Whatever is still running when the Node process exits (`exit`, also after an uncaught
 * error) is killed there and then; SIGINT (Ctrl-C), SIGTERM and SIGHUP stop every child first and
 * then, when nothing else in the process listens for that signal, end the process as the signal
 * would have. A process killed outright (SIGKILL) runs no handler: Node has no `PR_SET_PDEATHSIG`.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, closeSync, openSync, readFileSync, rmSync } from "node:fs";

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** The children still running: the one piece of process-wide state, because an exiting process has nothing else to ask. */
const live = new Set<Child>();
let hooked = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
    try {
        process.kill(-pid, signal);
    } catch {
        // The group is gone already.
    }
}

function onSignal(signal: NodeJS.Signals): void {
    for (const child of live) child.killNow("SIGTERM");
    // Nothing else handles it: end as the signal would have (Node's default), now that the children are stopped.
    if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
    }
}

function installHooks(): void {
    if (hooked) return;
    hooked = true;
    process.on("exit", () => {
        for (const child of live) {
            child.killNow("SIGKILL");
            child.removeDirectory();
        }
    });
    for (const signal of FORWARDED_SIGNALS) process.on(signal, onSignal);
}

/** A line of output, or the end of the output (`null`). */
type LineListener = (line: string | null) => void;

/** A running child in its own process group, stdout and stderr copied to `logPath`, stdout read line by line. */
export class Child {
    readonly logPath: string;
    private readonly process: ChildProcess;
    private readonly listeners = new Set<LineListener>();
    private readonly exited: Promise<number | null>;
    private pending = "";
    private ended = false;
    private directory: string | undefined;

    private constructor(process: ChildProcess, logPath: string) {
        this.process = process;
        this.logPath = logPath;
        this.exited = new Promise((resolve) => {
            process.on("exit", (code, signal) => {
                live.delete(this);
                // The leader is gone; anything it left in its group goes too.
                if (process.pid !== undefined) killGroup(process.pid, "SIGKILL");
                resolve(code ?? (signal ? -1 : null));
            });
        });
        const stdout = process.stdout;
        stdout?.setEncoding("utf8");
        stdout?.on("data", (chunk) => this.read(chunk));
        stdout?.on("end", () => this.endOutput());
        stdout?.on("error", () => this.endOutput());
    }

    /**
     * Starts `argv`, its stdout copied to `logPath` and its stderr written to `stderrPath` (the same file by
     * default); rejects when it cannot be run at all (no such file, not executable).
     */
    static start(argv: readonly string[], logPath: string, stderrPath = logPath): Promise<Child> {
        installHooks();
        const [command, ...args] = argv;
        if (command === undefined) return Promise.reject(new Error("no command"));
        const log = openSync(stderrPath, "a", 0o600);
        let spawned: ChildProcess;
        try {
            spawned = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", log] });
        } finally {
            closeSync(log);
        }
        return new Promise((resolve, reject) => {
            spawned.on("error", (error) => reject(error));
            if (spawned.pid === undefined) return; // the error event follows
            const child = new Child(spawned, logPath);
            live.add(child);
            resolve(child);
        });
    }

    get pid(): number {
        return this.process.pid ?? -1;
    }

    get running(): boolean {
        return this.process.exitCode === null && this.process.signalCode === null;
    }

    private read(chunk: string): void {
        appendFileSync(this.logPath, chunk);
        this.pending += chunk;
        let newline = this.pending.indexOf("\n");
        while (newline >= 0) {
            const line = this.pending.slice(0, newline);
            this.pending = this.pending.slice(newline + 1);
            for (const listener of this.listeners) listener(line);
            newline = this.pending.indexOf("\n");
        }
    }

    private endOutput(): void {
        if (this.ended) return;
        this.ended = true;
        if (this.pending) for (const listener of this.listeners) listener(this.pending);
        for (const listener of this.listeners) listener(null);
    }

    /**
     * The first line of output for which `accept` returns a value; `null` if the output ends or
     * `timeoutMs` passes first. Waits on the output itself: no sleeping, no polling.
     */
    waitForLine<T>(accept: (line: string) => T | null, timeoutMs: number): Promise<T | null> {
        return new Promise((resolve) => {
            if (this.ended) return resolve(null);
            const finish = (value: T | null): void => {
                clearTimeout(timer);
                this.listeners.delete(listener);
                resolve(value);
            };
            const listener: LineListener = (line) => {
                if (line === null) return finish(null);
                const value = accept(line);
                if (value !== null) finish(value);
            };
            const timer = setTimeout(() => finish(null), timeoutMs);
            this.listeners.add(listener);
        });
    }

    /** Lets the Node process exit while the child runs (the `exit` hook still kills it then). */
    detachFromEventLoop(): void {
        this.process.unref();
        this.process.stdout?.unref?.();
    }

    /** The end of what the child printed. */
    outputTail(limit = 4000): string {
        try {
            const text = readFileSync(this.logPath, "utf8");
            return text.slice(Math.max(0, text.length - limit));
        } catch {
            return "";
        }
    }

    /** Whether the child has ended, or ends within `ms`. */
    async exitsWithin(ms: number): Promise<boolean> {
        if (!this.running) return true;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<false>((resolve) => {
            timer = setTimeout(() => resolve(false), ms);
        });
        const result = await Promise.race([this.exited.then(() => true as const), timeout]);
        clearTimeout(timer);
        return result;
    }

    /** Signals the child's process group at once, without waiting (for exit and signal handlers). */
    killNow(signal: "SIGTERM" | "SIGKILL"): void {
        live.delete(this);
        if (this.process.pid !== undefined) killGroup(this.process.pid, signal);
    }

    /**
     * SIGTERM to its process group, SIGKILL after `graceMs`; resolves with the exit status once it exited,
     * and its directory is removed. Idempotent.
     */
    async stop(graceMs = 10_000): Promise<number | null> {
        live.delete(this);
        if (this.running && this.process.pid !== undefined) {
            killGroup(this.process.pid, "SIGTERM");
            if (!(await this.exitsWithin(graceMs))) killGroup(this.process.pid, "SIGKILL");
        }
        const status = await this.exited;
        this.removeDirectory();
        return status;
    }

    /** Makes `directory` the child's: removed by `stop()`, or when the child goes with the Node process. */
    own(directory: string): void {
        this.directory = directory;
    }

    /** Removes the directory the child owns, if any. */
    removeDirectory(): void {
        const directory = this.directory;
        this.directory = undefined;
        if (directory) rmSync(directory, { recursive: true, force: true, maxRetries: 3 });
    }
}
