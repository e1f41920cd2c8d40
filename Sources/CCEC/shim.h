#include <libcec/cecc.h>
