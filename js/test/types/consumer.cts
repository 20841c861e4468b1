// The same package from a CommonJS TypeScript file (require): its own .d.ts files must type-check too.
import testkit = require("juice-testkit");
import mocha = require("juice-testkit/mocha");

export async function start(): Promise<string> {
    const apple: testkit.Emulator = await testkit.Emulator.start({}, { smtpPort: 0 });
    await apple.close();
    return mocha.rootHooks({}).beforeAll.name + apple.adminToken;
}
