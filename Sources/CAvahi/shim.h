// libavahi-client: publishing a DNS-SD service through the machine's avahi-daemon (over D-Bus), driven by
// avahi's threaded poll.
#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
