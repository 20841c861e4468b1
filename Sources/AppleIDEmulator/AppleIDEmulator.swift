import Hummingbird
import Mustache
import SQLiteKit
import JWTKit
