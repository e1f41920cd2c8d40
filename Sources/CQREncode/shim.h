// libqrencode: the module matrix of a QR code (the HomeKit setup payload shown in a terminal).
#include <qrencode.h>
