#ifndef THC_STORAGE_H
#define THC_STORAGE_H

#include "TH/THStorage.h"
#include "THC/THCGeneral.h"

#define THCStorage TH_CONCAT_3(THCuda, CReal, Storage)
#define THCStorage_(NAME) TH_CONCAT_4(THCuda, CReal, Storage_, NAME)

#define THC_GENERIC_FILE "THC/generic/THCStorage.h"
#include "THC/THCGenerateAllTypes.h"

#endif
