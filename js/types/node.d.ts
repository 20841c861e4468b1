// The few Node.js APIs juice-testkit uses, declared here because Debian packages no @types/node (the
// package is compiled with Debian's tsc and nothing from the npm registry). Only what src/ calls, with
// Node 20's signatures (https://nodejs.org/docs/latest-v20.x/api/). Not part of the published types:
// the package's .d.ts files name no Node type, so a consumer's own @types/node never meets these.

declare namespace NodeJS {
    type Signals = "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGKILL" | "SIGQUIT";
    interface Process {
        readonly env: Record<string, string | undefined>;
        readonly platform: string;
        readonly arch: string;
        readonly pid: number;
        readonly argv: string[];
        exitCode: number | undefined;
        on(event: "exit", listener: (code: number) => void): this;
        on(event: Signals, listener: (signal: Signals) => void): this;
        removeListener(event: Signals, listener: (signal: Signals) => void): this;
        listenerCount(event: string): number;
        kill(pid: number, signal?: Signals | number): true;
        cwd(): string;
    }
    interface ReadableText {
        setEncoding(encoding: "utf8"): this;
        on(event: "data", listener: (chunk: string) => void): this;
        on(event: "end" | "close", listener: () => void): this;
        on(event: "error", listener: (error: Error) => void): this;
        destroy(): void;
        unref?(): void;
    }
}

declare var process: NodeJS.Process;

declare module "node:child_process" {
    interface SpawnOptions {
        detached?: boolean;
        env?: Record<string, string | undefined>;
        cwd?: string;
        stdio?: Array<"ignore" | "pipe" | number>;
    }
    interface ChildProcess {
        readonly pid: number | undefined;
        readonly stdout: NodeJS.ReadableText | null;
        readonly stderr: NodeJS.ReadableText | null;
        readonly exitCode: number | null;
        readonly signalCode: string | null;
        on(event: "exit", listener: (code: number | null, signal: string | null) => void): this;
        on(event: "close", listener: (code: number | null, signal: string | null) => void): this;
        on(event: "error", listener: (error: Error & { code?: string }) => void): this;
        once(event: "exit", listener: (code: number | null, signal: string | null) => void): this;
        unref(): void;
        ref(): void;
    }
    function spawn(command: string, args: readonly string[], options?: SpawnOptions): ChildProcess;
}

declare module "node:fs" {
    interface Stats {
        isFile(): boolean;
        mode: number;
    }
    const constants: { X_OK: number; O_WRONLY: number; O_CREAT: number; O_EXCL: number };
    function accessSync(path: string, mode?: number): void;
    function statSync(path: string): Stats;
    function existsSync(path: string): boolean;
    function mkdtempSync(prefix: string): string;
    function mkdirSync(path: string, options?: { recursive?: boolean; mode?: number }): string | undefined;
    function openSync(path: string, flags: string | number, mode?: number): number;
    function closeSync(fd: number): void;
    function writeSync(fd: number, data: string): number;
    function writeFileSync(path: string, data: string, options?: { mode?: number; flag?: string }): void;
    function appendFileSync(path: string, data: string): void;
    function readFileSync(path: string, encoding: "utf8"): string;
    function renameSync(from: string, to: string): void;
    function rmSync(path: string, options?: { recursive?: boolean; force?: boolean; maxRetries?: number }): void;
    function openSync(path: string, flags: string): number;
    function fstatSync(fd: number): { size: number };
    function readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
}

declare module "node:os" {
    function tmpdir(): string;
    function availableParallelism(): number;
}

declare module "node:path" {
    function join(...parts: string[]): string;
    function dirname(path: string): string;
    function resolve(...parts: string[]): string;
    const delimiter: string;
}

declare module "node:url" {
    function fileURLToPath(url: string | URL): string;
}

declare module "node:crypto" {
    function randomBytes(size: number): { toString(encoding: "base64url" | "hex"): string };
    function createHash(algorithm: "sha256"): {
        update(data: string, encoding?: "utf8"): { digest(encoding: "hex"): string };
    };
}

declare module "node:net" {
    interface AddressInfo {
        port: number;
    }
    interface Server {
        listen(port: number, host: string, callback: () => void): this;
        address(): AddressInfo | string | null;
        close(callback?: (error?: Error) => void): this;
        on(event: "error", listener: (error: Error) => void): this;
        unref(): this;
    }
    interface Socket {
        setEncoding(encoding: "utf8"): this;
        setTimeout(ms: number, listener?: () => void): this;
        write(data: string): boolean;
        end(): this;
        destroy(error?: Error): this;
        on(event: "data", listener: (chunk: string) => void): this;
        on(event: "error", listener: (error: Error) => void): this;
        on(event: "close" | "connect", listener: () => void): this;
    }
    function createServer(): Server;
    function createConnection(options: { host: string; port: number }): Socket;
}

declare module "node:test" {
    type Hook = (fn: () => unknown | Promise<unknown>, options?: { timeout?: number }) => void;
    const before: Hook;
    const after: Hook;
    const beforeEach: Hook;
    const afterEach: Hook;
}
