#include "TH/THStorage.h"

#include <string.h>

#include "TH/THTensor.hpp"

#define TH_GENERIC_FILE "TH/generic/THStorage.cpp"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THStorage.cpp"
#include "TH/THGenerateHalfType.h"

#define TH_GENERIC_FILE "TH/generic/THStorageCopy.cpp"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THStorageCopy.cpp"
#include "TH/THGenerateHalfType.h"
