// A TypeScript test file as a user writes it (ES modules): compiled with tsc --strict against the package's
// .d.ts files by types.test.mjs; it is never run. Every call here must type-check, and each line under an
// expect-error directive must not (the failure kinds' options are typed by kind).
import { AppleID, Emulator, EmulatorError, Kit, newTeamKey, type CapturedRequest, type ConformanceReport, type FailureHandle, type KitStartOptions, type WebSignIn } from "juice-testkit";
import { useEmulator } from "juice-testkit/node-test";
import { juiceEmulator, rootHooks } from "juice-testkit/mocha";
import { globalSetup, globalTeardown, useJestEmulator } from "juice-testkit/jest";
import { useVitestEmulator } from "juice-testkit/vitest";

const alice = new AppleID("alice@example.org", "pw", "Alice");
const fixture = useEmulator({ apple_ids: [alice.config()] }, { smtpPort: 0 });

export async function flows(): Promise<void> {
    const apple: Emulator = fixture.emulator;
    const signedIn: WebSignIn = await apple.signIn(`${apple.url}/auth/authorize?client_id=x`, alice, { emailChoice: "hide" });
    const code: string | null = signedIn.code;
    const native = await apple.nativeSignIn("com.example.app", alice, { nonce: "n" });
    const token: string = native.identityToken;
    const outage: FailureHandle = await apple.fail("token_server_error", { clientId: "com.example.app", count: 1 });
    await outage.clear();
    await apple.fail("issuer_drift");
    await apple.fail("token_delay", { delaySeconds: 2 });
    // @ts-expect-error token_delay needs delaySeconds
    await apple.fail("token_delay");
    // @ts-expect-error keys_server_error applies to every client: no clientId
    await apple.fail("keys_server_error", { clientId: "com.example.app" });
    // @ts-expect-error not a kind
    await apple.fail("token_teapot");
    const captured: CapturedRequest[] = await apple.requests({ path: "/auth/token" });
    const lifetime = Number(captured[0]?.clientSecret?.claims?.["exp"]) - Number(captured[0]?.clientSecret?.claims?.["iat"]);
    const mail = await apple.inbox(alice.email);
    const id: string = mail[0]?.id ?? "";
    await apple.mail(id);
    await apple.clock.advance(301);
    try {
        await apple.seed({ appleIds: [alice] });
    } catch (error) {
        if (error instanceof EmulatorError) console.log(error.code, error.reason, error.status);
    }
    const key = await newTeamKey("ABCDE12345", "/tmp");
    const kit = await Kit.open();
    const report: ConformanceReport = await kit.run({ backend: "http://127.0.0.1:1", teamId: key.teamId, keyId: key.keyId, teamKey: key.path, clientId: "c", redirectUri: "r" });
    report.assertOk();
    const options: KitStartOptions = { backend: "http://127.0.0.1:1", teamId: key.teamId, keyId: key.keyId, teamKey: key.path, clientId: "c", redirectUri: "r", waitForBackend: 30 };
    const started = await Kit.start({ ...options, reportDir: "/tmp/reports" });
    const port: number = started.port;
    const pid: number | null = started.pid;
    const judged: ConformanceReport = await started.wait(600_000);
    await started.close();
    console.log(port, pid, judged.ok);
    console.log(code, token, lifetime, report.case("state-replay").verdict, juiceEmulator().url);
}

export const mochaHooks = rootHooks({});
export const jest = [globalSetup({}), globalTeardown, useJestEmulator] as const;
export const vitest = useVitestEmulator;
