#ifndef TH_STORAGE_H
#define TH_STORAGE_H

#include "TH/THGeneral.h"
#include "TH/THAllocator.h"

#define THStorage TH_CONCAT_3(TH, Real, Storage)
#define THStorage_(NAME) TH_CONCAT_4(TH, Real, Storage_, NAME)

/* Storage flags */
#define TH_STORAGE_REFCOUNTED 1 /* free() drops a reference */
#define TH_STORAGE_RESIZABLE 2  /* resize() may reallocate */
#define TH_STORAGE_FREEMEM 4    /* the last free() releases data through the allocator */

#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#include "TH/THGenerateHalfType.h"

#define TH_GENERIC_FILE "TH/generic/THStorageCopy.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THStorageCopy.h"
#include "TH/THGenerateHalfType.h"

#endif
