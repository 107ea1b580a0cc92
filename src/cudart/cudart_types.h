/*
 * cudart_types.h - the CUDA runtime types and constants the library needs,
 * written for warpsim (CUDA's own headers are not used in the build).  Only
 * the ABI matters: the numeric values and the struct layouts that an
 * nvcc-compiled program (CUDA 13.0 headers) passes across the calls.  Sizes
 * and offsets were checked against CUDA 13.0's driver_types.h; the static
 * assertions at the end keep them.
 *
 * WARPSIM_CUDART_ABI selects the major version the library is built for: 13
 * (default, libcudart.so.13) or 12 (libcudart.so.12, the same sources).  What
 * differs between the two is below under #if: cudaDeviceProp (CUDA 12's has
 * the fields CUDA 13 removed: clockRate, deviceOverlap,
 * kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear, memoryClockRate,
 * singleToDoublePrecisionPerfRatio, cooperativeMultiDeviceLaunch; 1032
 * bytes), cudaPointerAttributes (CUDA 13 appended reserved words; CUDA 12's
 * is the 24-byte head), and the version cudaRuntimeGetVersion reports.
 */
#ifndef WARPSIM_CUDART_TYPES_H
#define WARPSIM_CUDART_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifndef WARPSIM_CUDART_ABI
#define WARPSIM_CUDART_ABI 13
#endif
#if WARPSIM_CUDART_ABI != 12 && WARPSIM_CUDART_ABI != 13
#error "WARPSIM_CUDART_ABI must be 12 or 13"
#endif
#if WARPSIM_CUDART_ABI == 12
#define CUDART_VERSION_NUMBER 12090   /* CUDA 12.9, the last 12.x */
#else
#define CUDART_VERSION_NUMBER 13000
#endif

typedef int cudaError_t;   /* enum cudaError: an int in the ABI */
enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorMissingConfiguration = 52,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
};

enum {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

/* cudaDeviceAttr values answered by cudaDeviceGetAttribute */
enum {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106
};

typedef struct { unsigned x, y, z; } cudart_dim3;   /* dim3: 12 bytes, passed by value */

/* cudaDeviceProp of CUDA 13.0 (1008 bytes) or, with WARPSIM_CUDART_ABI 12, of
   CUDA 12.x (1032 bytes); the fields warpsim fills are named, the rest kept as
   opaque spans of the same size. */
#if WARPSIM_CUDART_ABI == 12
struct cudart_device_prop {
    char name[256];
    char uuid[16];
    char luid[8];
    unsigned luidDeviceNodeMask;
    size_t totalGlobalMem;              /* 288 */
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;                      /* 348 */
    size_t totalConstMem;
    int major;                          /* 360 */
    int minor;                          /* 364 */
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;            /* 388 */
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int texture_limits_[40];            /* maxTexture1D .. maxSurfaceCubemapLayered (with maxTexture1DLinear) */
    size_t surfaceAlignment;            /* 568 */
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;                /* 608 */
    int memoryBusWidth;
    int l2CacheSize;                    /* 616 */
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;    /* 624 */
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;          /* 648 */
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;     /* 712 */
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int later_[13];                     /* hostRegisterSupported .. unifiedFunctionPointers */
    int reserved[63];                   /* 780 */
};
#else
struct cudart_device_prop {
    char name[256];
    char uuid[16];
    char luid[8];
    unsigned luidDeviceNodeMask;
    size_t totalGlobalMem;              /* 288 */
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;            /* 384 */
    int integrated;
    int canMapHostMemory;
    int texture_limits_[39];            /* maxTexture1D .. maxSurfaceCubemapLayered */
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;                    /* 596 */
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;    /* 604 */
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;          /* 632 */
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;     /* 688 */
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int later_[20];                     /* hostRegisterSupported .. hostNumaMultinodeIpcSupported */
    int reserved[56];                   /* 784 */
};
#endif

/* cudaFuncAttributes (144 bytes) */
struct cudart_func_attributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int cluster_[6];
    int reserved[16];
};

/* textures: cudaChannelFormatDesc (20 bytes), cudaResourceDesc (144), cudaTextureDesc (72) */
/* cudaDeviceSetLimit / cudaDeviceGetLimit */
enum { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
       cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
       cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6 };

/* cudaPointerGetAttributes (CUDA 13's struct cudaPointerAttributes; CUDA 12's ends before `reserved`) */
enum { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };
struct cudart_pointer_attributes {
    int type;                    /* enum cudaMemoryType */
    int device;
    void *devicePointer;
    void *hostPointer;
#if WARPSIM_CUDART_ABI == 13
    long reserved[8];
#endif
};

enum { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2 };
/* cudaMallocArray flags */
enum { cudaArrayDefault = 0, cudaArraySurfaceLoadStore = 0x02 };
enum { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
       cudaResourceTypePitch2D = 3 };
enum { cudaFilterModePoint = 0, cudaReadModeElementType = 0 };
struct cudart_channel_desc { int x, y, z, w, f; };
struct cudart_extent { size_t width, height, depth; };
struct cudart_resource_desc {
    int resType;
    union {
        struct { void *devPtr; struct cudart_channel_desc desc; size_t sizeInBytes; } linear;
        struct { void *devPtr; struct cudart_channel_desc desc; size_t width, height, pitchInBytes; } pitch2D;
        void *array;
        int reserved[32];
    } res;
    unsigned flags;
};
struct cudart_texture_desc {
    int addressMode[3];
    int filterMode;
    int readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};
_Static_assert(sizeof(struct cudart_channel_desc) == 20, "cudaChannelFormatDesc");
_Static_assert(sizeof(struct cudart_resource_desc) == 144, "cudaResourceDesc is 144 bytes");
_Static_assert(offsetof(struct cudart_resource_desc, flags) == 136, "cudaResourceDesc.flags");
_Static_assert(offsetof(struct cudart_resource_desc, res.pitch2D.pitchInBytes) == 56, "cudaResourceDesc.res.pitch2D");
_Static_assert(offsetof(struct cudart_resource_desc, res.linear.sizeInBytes) == 40, "cudaResourceDesc.res.linear");
_Static_assert(sizeof(struct cudart_texture_desc) == 72, "cudaTextureDesc is 72 bytes");
_Static_assert(offsetof(struct cudart_texture_desc, normalizedCoords) == 40, "cudaTextureDesc.normalizedCoords");

#if WARPSIM_CUDART_ABI == 12
_Static_assert(sizeof(struct cudart_device_prop) == 1032, "cudaDeviceProp is 1032 bytes in CUDA 12.x");
_Static_assert(offsetof(struct cudart_device_prop, totalGlobalMem) == 288, "cudaDeviceProp.totalGlobalMem");
_Static_assert(offsetof(struct cudart_device_prop, clockRate) == 348, "cudaDeviceProp.clockRate");
_Static_assert(offsetof(struct cudart_device_prop, major) == 360, "cudaDeviceProp.major");
_Static_assert(offsetof(struct cudart_device_prop, multiProcessorCount) == 388, "cudaDeviceProp.multiProcessorCount");
_Static_assert(offsetof(struct cudart_device_prop, surfaceAlignment) == 568, "cudaDeviceProp.surfaceAlignment");
_Static_assert(offsetof(struct cudart_device_prop, memoryClockRate) == 608, "cudaDeviceProp.memoryClockRate");
_Static_assert(offsetof(struct cudart_device_prop, l2CacheSize) == 616, "cudaDeviceProp.l2CacheSize");
_Static_assert(offsetof(struct cudart_device_prop, maxThreadsPerMultiProcessor) == 624, "maxThreadsPerMultiProcessor");
_Static_assert(offsetof(struct cudart_device_prop, regsPerMultiprocessor) == 648, "regsPerMultiprocessor");
_Static_assert(offsetof(struct cudart_device_prop, maxBlocksPerMultiProcessor) == 712, "maxBlocksPerMultiProcessor");
_Static_assert(offsetof(struct cudart_device_prop, reserved) == 780, "cudaDeviceProp.reserved");
_Static_assert(sizeof(struct cudart_pointer_attributes) == 24, "cudaPointerAttributes is 24 bytes in CUDA 12.x");
#else
_Static_assert(sizeof(struct cudart_device_prop) == 1008, "cudaDeviceProp is 1008 bytes in CUDA 13.0");
_Static_assert(offsetof(struct cudart_device_prop, totalGlobalMem) == 288, "cudaDeviceProp.totalGlobalMem");
_Static_assert(offsetof(struct cudart_device_prop, multiProcessorCount) == 384, "cudaDeviceProp.multiProcessorCount");
_Static_assert(offsetof(struct cudart_device_prop, l2CacheSize) == 596, "cudaDeviceProp.l2CacheSize");
_Static_assert(offsetof(struct cudart_device_prop, maxThreadsPerMultiProcessor) == 604, "maxThreadsPerMultiProcessor");
_Static_assert(offsetof(struct cudart_device_prop, regsPerMultiprocessor) == 632, "regsPerMultiprocessor");
_Static_assert(offsetof(struct cudart_device_prop, maxBlocksPerMultiProcessor) == 688, "maxBlocksPerMultiProcessor");
_Static_assert(offsetof(struct cudart_device_prop, reserved) == 784, "cudaDeviceProp.reserved");
#endif
_Static_assert(sizeof(struct cudart_func_attributes) == 144, "cudaFuncAttributes is 144 bytes");
_Static_assert(offsetof(struct cudart_func_attributes, numRegs) == 28, "cudaFuncAttributes.numRegs");
_Static_assert(sizeof(cudart_dim3) == 12, "dim3");

#endif
