// The system's SQLite (Debian: libsqlite3-dev), for JuiceInfrastructure's SQLite connection.
#include <sqlite3.h>
