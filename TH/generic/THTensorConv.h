#ifndef TH_GENERIC_FILE
#error "include TH/THTensorConv.h instead"
#endif

/* r <- x correlated with k over their last nd dimensions (nd is 2 or 3), k flipped in each of
 * them when flip (a convolution). mode 'V' (valid) gives x - k + 1 elements per dimension and
 * needs x at least as large as k; 'F' (full) gives x + k - 1, x being zero outside. Shapes:
 * x and k of nd dimensions; or both of nd + 1 with the same first size (plane i of r from
 * plane i of x and k); or x of nd + 1 and k of nd + 2, k[o][i] applied to x[i] and summed
 * over i into plane o of r. A convolution equals the correlation with the flipped kernel to
 * the last bit: both sum the same products in the same order. */
TH_API void THTensor_(conv)(THTensor *r, THTensor *x, THTensor *k, int nd, int flip, char mode);
