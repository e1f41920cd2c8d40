// OpenSSL's libcrypto, for its big-number arithmetic only (BN): the modular exponentiations of SRP-6a.
#include <openssl/bn.h>
