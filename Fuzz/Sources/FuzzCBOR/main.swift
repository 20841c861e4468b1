import Foundation
import FuzzSupport

// libFuzzer runs the target until it finds a crash or its time is up.
exit(runFuzzer(fuzzCBOR))
