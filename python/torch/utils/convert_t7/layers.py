"""Runtime modules for torch7 layers that torch.nn has no module for (or none that keeps
torch7's parameter layout): each keeps its torch7 parameters under their torch7 names and
shapes, so a converted model's gradients are torch7's gradients, and computes its forward
with torch / torch.nn.functional in the order torch7 computes it.

Note [Indices shifted once]: where a torch7 module reads or writes indices (LookupTable's
ids, Index's positions, SparseLinear's feature numbers, a criterion's classes), the
converted module takes and gives them 0-based, like everything in torch.nn; the caller
subtracts 1 from torch7's 1-based values once, at the model's input. emit_python writes
this down next to the module in the emitted source.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.convert_t7.runtime import _batch_dim, _T7Module


def _new_param(*shape):
    return nn.Parameter(torch.zeros(*shape))


def _expand_param(param, x, who):
    """torch7's CMul.expandParameter: param laid out as x, once per batch sample, or spread
    over its size-1 dimensions."""
    if param.numel() == x.numel():
        return param.reshape(x.shape)
    if x.dim() >= 2 and x.numel() == x.shape[0] * param.numel():
        return param.reshape((1,) + tuple(x.shape[1:])).expand_as(x)
    if param.dim() != x.dim() or any(p not in (1, s) for p, s in zip(param.shape, x.shape)):
        raise RuntimeError(
            "%s: an input of size %s does not fit the parameter's size %s" % (who, tuple(x.shape), tuple(param.shape))
        )
    return param.expand_as(x)


class CAdd(_T7Module):
    """torch7's nn.CAdd(size): x + bias, bias laid out as x (_expand_param)."""

    def __init__(self, size):
        super().__init__()
        self.size = [int(s) for s in size]
        self.bias = _new_param(*self.size)

    def forward(self, x):
        return x + _expand_param(self.bias, x, "CAdd")

    def _t7_args(self):
        return [self.size], {}


class CMul(_T7Module):
    """torch7's nn.CMul(size): x * weight, weight laid out as x (_expand_param)."""

    def __init__(self, size):
        super().__init__()
        self.size = [int(s) for s in size]
        self.weight = _new_param(*self.size)

    def forward(self, x):
        return x * _expand_param(self.weight, x, "CMul")

    def _t7_args(self):
        return [self.size], {}


class Add(_T7Module):
    """torch7's nn.Add(inputSize, scalar): x + bias (one number with scalar)."""

    def __init__(self, size, scalar=False):
        super().__init__()
        self.size, self.scalar = int(size), bool(scalar)
        self.bias = _new_param(1 if scalar else self.size)

    def forward(self, x):
        if self.scalar:
            return x + self.bias[0]
        return x + _expand_param(self.bias, x, "Add")

    def _t7_args(self):
        return [self.size], {"scalar": self.scalar}


class Mul(_T7Module):
    """torch7's nn.Mul: x times one learnt number."""

    def __init__(self):
        super().__init__()
        self.weight = _new_param(1)

    def forward(self, x):
        return x * self.weight[0]

    def _t7_args(self):
        return [], {}


class Bilinear(_T7Module):
    """torch7's nn.Bilinear(in1, in2, out, bias): input {a, b}, y_k = a W_k b + bias_k."""

    def __init__(self, in1, in2, out, bias=True):
        super().__init__()
        self.in1, self.in2, self.out = in1, in2, out
        self.weight = _new_param(out, in1, in2)
        self.bias = _new_param(out) if bias else None

    def forward(self, xs):
        return F.bilinear(xs[0], xs[1], self.weight, self.bias)

    def _t7_args(self):
        return [self.in1, self.in2, self.out], {"bias": self.bias is not None}


def _frames_first(x):
    """[T, F] or [B, T, F] as a batch [B, F, T] for the 1-D functions."""
    return (x.unsqueeze(0) if x.dim() == 2 else x).transpose(1, 2)


def _frames_back(y, like):
    y = y.transpose(1, 2)
    return y.squeeze(0) if like.dim() == 2 else y


class TemporalConvolution(_T7Module):
    """torch7's nn.TemporalConvolution(inputFrameSize, outputFrameSize, kW, dW) over [T, F] or
    [B, T, F]; weight [outputFrameSize, kW * inputFrameSize] (frames laid end to end)."""

    def __init__(self, n_in, n_out, kw, dw=1):
        super().__init__()
        self.n_in, self.n_out, self.kw, self.dw = n_in, n_out, kw, dw
        self.weight = _new_param(n_out, kw * n_in)
        self.bias = _new_param(n_out)

    def forward(self, x):
        w = self.weight.reshape(self.n_out, self.kw, self.n_in).transpose(1, 2)
        return _frames_back(F.conv1d(_frames_first(x), w, self.bias, stride=self.dw), x)

    def _t7_args(self):
        return [self.n_in, self.n_out, self.kw, self.dw], {}


class TemporalMaxPooling(_T7Module):
    """torch7's nn.TemporalMaxPooling(kW, dW) over [T, F] or [B, T, F]."""

    def __init__(self, kw, dw=None):
        super().__init__()
        self.kw, self.dw = kw, dw or kw

    def forward(self, x):
        return _frames_back(F.max_pool1d(_frames_first(x), self.kw, self.dw), x)

    def _t7_args(self):
        return [self.kw, self.dw], {}


class TemporalSubSampling(_T7Module):
    """torch7's nn.TemporalSubSampling(inputFrameSize, kW, dW): weight[f] times the sum of each
    window of kW frames, plus bias[f]."""

    def __init__(self, n_in, kw, dw=1):
        super().__init__()
        self.n_in, self.kw, self.dw = n_in, kw, dw
        self.weight = _new_param(n_in)
        self.bias = _new_param(n_in)

    def forward(self, x):
        sums = F.avg_pool1d(_frames_first(x), self.kw, self.dw) * self.kw
        y = sums * self.weight.reshape(1, -1, 1) + self.bias.reshape(1, -1, 1)
        return _frames_back(y, x)

    def _t7_args(self):
        return [self.n_in, self.kw, self.dw], {}


def _as_batch(x, dims):
    return (x.unsqueeze(0), True) if x.dim() == dims else (x, False)


class SpatialSubSampling(_T7Module):
    """torch7's nn.SpatialSubSampling(nInputPlane, kW, kH, dW, dH): per plane, weight times the
    sum of each kW x kH window, plus bias."""

    def __init__(self, planes, kw, kh, dw=1, dh=1):
        super().__init__()
        self.planes, self.kw, self.kh, self.dw, self.dh = planes, kw, kh, dw, dh
        self.weight = _new_param(planes)
        self.bias = _new_param(planes)

    def forward(self, x):
        x, single = _as_batch(x, 3)
        sums = F.avg_pool2d(x, (self.kh, self.kw), (self.dh, self.dw)) * (self.kh * self.kw)
        y = sums * self.weight.reshape(1, -1, 1, 1) + self.bias.reshape(1, -1, 1, 1)
        return y.squeeze(0) if single else y

    def _t7_args(self):
        return [self.planes, self.kw, self.kh, self.dw, self.dh], {}


class SpatialDepthWiseConvolution(_T7Module):
    """torch7's nn.SpatialDepthWiseConvolution: input plane i convolved with weight[o][i] gives
    output plane i * nOutputPlane + o; weight [nOutputPlane, nInputPlane, kH, kW], bias
    [nOutputPlane, nInputPlane]."""

    def __init__(self, n_in, n_out, kw, kh, dw=1, dh=1, padw=0, padh=0, bias=True):
        super().__init__()
        self.args = [n_in, n_out, kw, kh, dw, dh, padw, padh]
        self.weight = _new_param(n_out, n_in, kh, kw)
        self.bias = _new_param(n_out, n_in) if bias else None

    def forward(self, x):
        n_in, n_out, kw, kh, dw, dh, padw, padh = self.args
        x, single = _as_batch(x, 3)
        w = self.weight.transpose(0, 1).reshape(n_in * n_out, 1, kh, kw)
        b = None if self.bias is None else self.bias.t().reshape(-1)
        y = F.conv2d(x, w, b, stride=(dh, dw), padding=(padh, padw), groups=n_in)
        return y.squeeze(0) if single else y

    def _t7_args(self):
        return list(self.args), {"bias": self.bias is not None}


class SpatialConvolutionLocal(_T7Module):
    """torch7's nn.SpatialConvolutionLocal: a convolution whose every output position has its
    own filters; weight [oH, oW, nOutputPlane, nInputPlane, kH, kW], bias [nOutputPlane, oH, oW]."""

    def __init__(self, n_in, n_out, iw, ih, kw, kh, dw=1, dh=1, padw=0, padh=0):
        super().__init__()
        self.args = [n_in, n_out, iw, ih, kw, kh, dw, dh, padw, padh]
        self.ow = (iw + 2 * padw - kw) // dw + 1
        self.oh = (ih + 2 * padh - kh) // dh + 1
        self.weight = _new_param(self.oh, self.ow, n_out, n_in, kh, kw)
        self.bias = _new_param(n_out, self.oh, self.ow)

    def forward(self, x):
        n_in, n_out, iw, ih, kw, kh, dw, dh, padw, padh = self.args
        x, single = _as_batch(x, 3)
        if tuple(x.shape[1:]) != (n_in, ih, iw):
            raise RuntimeError(
                "SpatialConvolutionLocal: input planes of %s expected, got %s" % ((n_in, ih, iw), tuple(x.shape[1:]))
            )
        cols = F.unfold(x, (kh, kw), padding=(padh, padw), stride=(dh, dw))  # [N, nIn kH kW, oH oW]
        w = self.weight.reshape(self.oh * self.ow, n_out, n_in * kh * kw)
        y = torch.einsum("ncl,loc->nol", cols, w).reshape(x.shape[0], n_out, self.oh, self.ow) + self.bias
        return y.squeeze(0) if single else y

    def _t7_args(self):
        return list(self.args), {}


class SpatialConvolutionMap(_T7Module):
    """torch7's nn.SpatialConvolutionMap(connTable, kW, kH, dW, dH): row k {i, o} of the
    connection table (0-based here) convolves input plane i with weight[k] into output plane o;
    with full, nn.SpatialFullConvolutionMap's transposed (full) convolutions."""

    def __init__(self, conn_table, kw, kh, dw=1, dh=1, full=False):
        super().__init__()
        self.full = bool(full)
        self.conn_table = [[int(i), int(o)] for i, o in conn_table]
        self.kw, self.kh, self.dw, self.dh = kw, kh, dw, dh
        self.n_out = max(o for _, o in self.conn_table) + 1
        self.weight = _new_param(len(self.conn_table), kh, kw)
        self.bias = _new_param(self.n_out)

    def forward(self, x):
        x, single = _as_batch(x, 3)
        sources = torch.tensor([i for i, _ in self.conn_table], dtype=torch.int64)
        planes = x.index_select(1, sources)
        k = len(self.conn_table)
        conv = F.conv_transpose2d if self.full else F.conv2d
        per_conn = conv(planes, self.weight.reshape(k, 1, self.kh, self.kw), stride=(self.dh, self.dw), groups=k)
        route = torch.zeros(self.n_out, k, dtype=x.dtype)
        for c, (_, o) in enumerate(self.conn_table):
            route[o, c] = 1
        y = torch.einsum("nkhw,ok->nohw", per_conn, route) + self.bias.reshape(1, -1, 1, 1)
        return y.squeeze(0) if single else y

    def _t7_args(self):
        return [self.conn_table, self.kw, self.kh, self.dw, self.dh], {"full": self.full}


class Cosine(_T7Module):
    """torch7's nn.Cosine(inputSize, outputSize): y_j = w_j . x / ((|w_j| + 1e-12) (|x| + 1e-12))."""

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        self.weight = _new_param(n_out, n_in)

    def forward(self, x):
        xb = x.unsqueeze(0) if x.dim() == 1 else x
        w_norm = self.weight.norm(2, 1) + 1e-12
        x_norm = xb.norm(2, 1, keepdim=True) + 1e-12
        y = xb.matmul(self.weight.t()) / w_norm / x_norm
        return y.squeeze(0) if x.dim() == 1 else y

    def _t7_args(self):
        return [self.n_in, self.n_out], {}


class Euclidean(_T7Module):
    """torch7's nn.Euclidean(inputSize, outputSize): y_j = |x - w_j|, w_j the columns of weight
    [inputSize, outputSize]."""

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        self.weight = _new_param(n_in, n_out)

    def forward(self, x):
        xb = x.unsqueeze(0) if x.dim() == 1 else x
        y = (xb.unsqueeze(2) - self.weight.unsqueeze(0)).pow(2).sum(1).sqrt()
        return y.squeeze(0) if x.dim() == 1 else y

    def _t7_args(self):
        return [self.n_in, self.n_out], {}


class WeightedEuclidean(_T7Module):
    """torch7's nn.WeightedEuclidean(inputSize, outputSize): y_j = |c_j * (x - w_j)|, w_j and c_j
    the columns of weight and diagCov [inputSize, outputSize]."""

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        self.weight = _new_param(n_in, n_out)
        self.diagCov = _new_param(n_in, n_out)

    def forward(self, x):
        xb = x.unsqueeze(0) if x.dim() == 1 else x
        diff = (xb.unsqueeze(2) - self.weight.unsqueeze(0)) * self.diagCov.unsqueeze(0)
        y = diff.pow(2).sum(1).sqrt()
        return y.squeeze(0) if x.dim() == 1 else y

    def _t7_args(self):
        return [self.n_in, self.n_out], {}


class Normalize(_T7Module):
    """torch7's nn.Normalize(p, eps): x / (sum |x_i|^p + eps)^(1/p) per vector (max |x_i| + eps
    for p = inf), for a vector or each row of a batch."""

    def __init__(self, p, eps=1e-10):
        super().__init__()
        self.p, self.eps = float(p), float(eps)

    def forward(self, x):
        xb = x.unsqueeze(0) if x.dim() == 1 else x
        if math.isinf(self.p):
            norm = xb.abs().max(1, keepdim=True)[0] + self.eps
        else:
            norm = (xb.abs().pow(self.p).sum(1, keepdim=True) + self.eps).pow(1 / self.p)
        y = xb / norm
        return y.squeeze(0) if x.dim() == 1 else y

    def _t7_args(self):
        return [self.p], {"eps": self.eps}


def _rows(x):
    return x.unsqueeze(0) if x.dim() == 1 else x


class PairwiseDistance(_T7Module):
    """torch7's nn.PairwiseDistance(p): input {a, b}; |a - b|_p per row, of size [1] or [B]
    (no epsilon in the forward, unlike torch.nn.PairwiseDistance)."""

    def __init__(self, p):
        super().__init__()
        self.p = float(p)

    def forward(self, xs):
        d = _rows(xs[0]) - _rows(xs[1])
        return d.abs().pow(self.p).sum(1).pow(1 / self.p)

    def _t7_args(self):
        return [self.p], {}


class CosineDistance(_T7Module):
    """torch7's nn.CosineDistance: input {a, b}; a . b / sqrt((|a|^2 + 1e-12) (|b|^2 + 1e-12))."""

    def forward(self, xs):
        a, b = _rows(xs[0]), _rows(xs[1])
        aa = a.pow(2).sum(1) + 1e-12
        bb = b.pow(2).sum(1) + 1e-12
        return (a * b).sum(1) / (aa * bb).sqrt()

    def _t7_args(self):
        return [], {}


class DotProduct(_T7Module):
    """torch7's nn.DotProduct: input {a, b}; a . b per row."""

    def forward(self, xs):
        return (_rows(xs[0]) * _rows(xs[1])).sum(1)

    def _t7_args(self):
        return [], {}


class MapTable(_T7Module):
    """torch7's nn.MapTable(module): the one module (parameters shared) on every element."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, xs):
        return [self.module(x) for x in xs]

    def _t7_args(self):
        return [self.module], {}


class SplitTable(_T7Module):
    """torch7's nn.SplitTable(dimension, nInputDims): the slices along dim (0-based) as a list."""

    def __init__(self, dim, n_input_dims=None):
        super().__init__()
        self.dim, self.n_input_dims = dim, n_input_dims

    def forward(self, x):
        return list(x.unbind(_batch_dim(self.dim, x.dim(), self.n_input_dims)))

    def _t7_args(self):
        return [self.dim, self.n_input_dims], {}


class CReLU(_T7Module):
    """torch7's nn.CReLU(nInputDims): relu(x) and relu(-x) joined along the feature dimension."""

    def __init__(self, n_input_dims):
        super().__init__()
        self.n_input_dims = n_input_dims

    def forward(self, x):
        dim = 1 if x.dim() > self.n_input_dims else 0
        return torch.cat([F.relu(x), F.relu(-x)], dim)

    def _t7_args(self):
        return [self.n_input_dims], {}


class Collapse(_T7Module):
    """torch7's nn.Collapse(nInputDim): a sample as a vector, each sample of a batch as a row."""

    def __init__(self, n_input_dim):
        super().__init__()
        self.n_input_dim = n_input_dim

    def forward(self, x):
        if x.dim() > self.n_input_dim:
            return x.reshape(x.shape[0], -1)
        return x.reshape(-1)

    def _t7_args(self):
        return [self.n_input_dim], {}


class Constant(_T7Module):
    """torch7's nn.Constant(value, nInputDim): value, once per sample of a batch input."""

    def __init__(self, shape, n_input_dim=None):
        super().__init__()
        self.register_buffer("value", torch.zeros([int(s) for s in shape]))
        self.n_input_dim = n_input_dim

    def forward(self, x):
        value = self.value.to(x.dtype)
        if self.n_input_dim is not None and x.dim() > self.n_input_dim:
            return value.unsqueeze(0).expand((x.shape[0],) + tuple(value.shape))
        return value

    def _t7_args(self):
        return [list(self.value.shape)], {"n_input_dim": self.n_input_dim}


class Index(_T7Module):
    """torch7's nn.Index(dimension): input {t, ids}; t.index_select(dim, ids), ids 0-based
    (Note [Indices shifted once])."""

    index_note = "takes 0-based ids (its second input): torch7's less 1"

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, xs):
        return xs[0].index_select(self.dim, xs[1])

    def _t7_args(self):
        return [self.dim], {}


class MaskedSelect(_T7Module):
    """torch7's nn.MaskedSelect: input {t, mask}; the elements of t where mask is set, as a vector."""

    def forward(self, xs):
        return xs[0].masked_select(xs[1].bool())

    def _t7_args(self):
        return [], {}


class MM(_T7Module):
    """torch7's nn.MM(transA, transB): input {A, B}, matrices or batches of them; A B."""

    def __init__(self, trans_a=False, trans_b=False):
        super().__init__()
        self.trans_a, self.trans_b = bool(trans_a), bool(trans_b)

    def forward(self, xs):
        a, b = xs
        if self.trans_a:
            a = a.transpose(-1, -2)
        if self.trans_b:
            b = b.transpose(-1, -2)
        return torch.matmul(a, b)

    def _t7_args(self):
        return [self.trans_a, self.trans_b], {}


class MV(_T7Module):
    """torch7's nn.MV(trans): input {M, v}, or batches of them; M v."""

    def __init__(self, trans=False):
        super().__init__()
        self.trans = bool(trans)

    def forward(self, xs):
        m, v = xs
        if self.trans:
            m = m.transpose(-1, -2)
        return torch.matmul(m, v.unsqueeze(-1)).squeeze(-1)

    def _t7_args(self):
        return [self.trans], {}


class ZipTable(_T7Module):
    """torch7's nn.ZipTable: {{a1, a2, ...}, {b1, b2, ...}} -> {{a1, b1}, {a2, b2}, ...}."""

    def forward(self, xs):
        return [list(t) for t in zip(*xs)]

    def _t7_args(self):
        return [], {}


class ZipTableOneToMany(_T7Module):
    """torch7's nn.ZipTableOneToMany: {v, {a1, a2, ...}} -> {{v, a1}, {v, a2}, ...}."""

    def forward(self, xs):
        return [[xs[0], a] for a in xs[1]]

    def _t7_args(self):
        return [], {}


class CAddTensorTable(_T7Module):
    """torch7's nn.CAddTensorTable: {x, {y1, ...}} -> {x + y1, ...}."""

    def forward(self, xs):
        return [xs[0] + y for y in xs[1]]

    def _t7_args(self):
        return [], {}


class Bottle(_T7Module):
    """torch7's nn.Bottle(module, nInputDim, nOutputDim): module on an input with more leading
    dimensions, folded into the first one and unfolded again after."""

    def __init__(self, module, n_input_dim=2, n_output_dim=None):
        super().__init__()
        self.module = module
        self.n_input_dim = n_input_dim
        self.n_output_dim = n_output_dim if n_output_dim is not None else n_input_dim

    def forward(self, x):
        if x.dim() <= self.n_input_dim:
            return self.module(x)
        lead = x.dim() - self.n_input_dim + 1
        y = self.module(x.reshape((-1,) + tuple(x.shape[lead:])))
        return y.reshape(tuple(x.shape[:lead]) + tuple(y.shape[1:]))

    def _t7_args(self):
        return [self.module, self.n_input_dim, self.n_output_dim], {}


class MixtureTable(_T7Module):
    """torch7's nn.MixtureTable(dim): input {gater [B, n], experts}, experts a list of n tensors
    or one tensor with the experts along dim (0-based); the gater-weighted sum of the experts."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, xs):
        gater, experts = xs
        if isinstance(experts, (list, tuple)):
            out = 0
            for i, e in enumerate(experts):
                g = gater.select(-1, i)
                out = out + g.reshape(tuple(g.shape) + (1,) * (e.dim() - g.dim())) * e
            return out
        dim = self.dim if self.dim is not None else (1 if gater.dim() == 2 else 0)
        shape = [1] * experts.dim()
        for d in range(gater.dim() - 1):
            shape[d] = gater.shape[d]
        shape[dim] = gater.shape[-1]
        return (experts * gater.reshape(shape)).sum(dim)

    def _t7_args(self):
        return [self.dim], {}


class ZeroGrad(_T7Module):
    """torch7's nn.ZeroGrad: the identity forward, no gradient backward."""

    def forward(self, x):
        return x.detach()

    def _t7_args(self):
        return [], {}


class GradientReversal(_T7Module):
    """torch7's nn.GradientReversal(lambda): the identity forward, the gradient times -lambda."""

    def __init__(self, lambda_=1.0):
        super().__init__()
        self.lambda_ = float(lambda_)

    def forward(self, x):
        # x - lambda x + lambda x: the value of x (the detached term cancels), the gradient -lambda
        return x.detach() * (1 + self.lambda_) - x * self.lambda_

    def _t7_args(self):
        return [self.lambda_], {}


class _AddL1Gradient(torch.autograd.Function):
    """The identity forward; backward, the gradient (or nothing, without keep) plus w sign(x)."""

    @staticmethod
    def forward(ctx, x, w, keep):
        ctx.save_for_backward(x)
        ctx.w, ctx.keep = w, keep
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        penalty = x.sign() * ctx.w
        return (grad + penalty if ctx.keep else penalty), None, None


class L1Penalty(_T7Module):
    """torch7's nn.L1Penalty(l1weight, sizeAverage, provideOutput): the identity forward; the
    gradient gains l1weight sign(x) (divided by x's size with sizeAverage) whatever the
    gradient of the output is, and is only that without provideOutput."""

    def __init__(self, l1weight, size_average=False, provide_output=True):
        super().__init__()
        self.l1weight, self.size_average, self.provide_output = (
            float(l1weight),
            bool(size_average),
            bool(provide_output),
        )

    def forward(self, x):
        w = self.l1weight / x.numel() if self.size_average else self.l1weight
        return _AddL1Gradient.apply(x, w, self.provide_output)

    def _t7_args(self):
        return [self.l1weight], {"size_average": self.size_average, "provide_output": self.provide_output}


class UpSamplingBilinear(_T7Module):
    """torch7's nn.SpatialUpSamplingBilinear(scale or {oheight, owidth}) as this project's nn
    sizes it (H scale x W scale, or oheight x owidth), corners aligned."""

    def __init__(self, scale=None, oheight=None, owidth=None):
        super().__init__()
        self.scale, self.oheight, self.owidth = scale, oheight, owidth

    def forward(self, x):
        xb, single = _as_batch(x, 3)
        size = (
            (self.oheight, self.owidth) if self.scale is None else (xb.shape[2] * self.scale, xb.shape[3] * self.scale)
        )
        y = F.interpolate(xb, size=size, mode="bilinear", align_corners=True)
        return y.squeeze(0) if single else y

    def _t7_args(self):
        return [], {"scale": self.scale, "oheight": self.oheight, "owidth": self.owidth}


class TemporalRowConvolution(_T7Module):
    """torch7's nn.TemporalRowConvolution(inputFrameSize, kW, dW, featFirst): each feature row
    convolved over time with its own kernel, weight [inputFrameSize, 1, kW], bias
    [inputFrameSize]; input [T, F] ([F, T] with featFirst) or a batch of them."""

    def __init__(self, n_in, kw, dw=1, feat_first=False):
        super().__init__()
        self.n_in, self.kw, self.dw, self.feat_first = n_in, kw, dw, bool(feat_first)
        self.weight = _new_param(n_in, 1, kw)
        self.bias = _new_param(n_in)

    def forward(self, x):
        if self.feat_first:
            xb = x.unsqueeze(0) if x.dim() == 2 else x
            y = F.conv1d(xb, self.weight, self.bias, stride=self.dw, groups=self.n_in)
            return y.squeeze(0) if x.dim() == 2 else y
        y = F.conv1d(_frames_first(x), self.weight, self.bias, stride=self.dw, groups=self.n_in)
        return _frames_back(y, x)

    def _t7_args(self):
        return [self.n_in, self.kw, self.dw], {"feat_first": self.feat_first}


class TemporalDynamicKMaxPooling(_T7Module):
    """torch7's nn.TemporalDynamicKMaxPooling(minK, factor): per feature, the k largest values
    over time in their time order, k = max(minK, ceil(factor T))."""

    def __init__(self, min_k, factor=0.0):
        super().__init__()
        self.min_k, self.factor = int(min_k), float(factor)

    def forward(self, x):
        time_dim = x.dim() - 2
        n = x.shape[time_dim]
        k = max(self.min_k, math.ceil(self.factor * n))
        if k > n:
            raise RuntimeError("TemporalDynamicKMaxPooling: k = %d exceeds the sequence length %d" % (k, n))
        top = x.topk(k, time_dim)[1].sort(time_dim)[0]
        return x.gather(time_dim, top)

    def _t7_args(self):
        return [self.min_k, self.factor], {}


class LinearWeightNorm(_T7Module):
    """torch7's nn.LinearWeightNorm(inputSize, outputSize, bias): Linear with weight row j =
    g_j v_j / |v_j|; parameters v [out, in], g [out, 1], bias."""

    def __init__(self, n_in, n_out, bias=True):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        self.v = _new_param(n_out, n_in)
        self.g = _new_param(n_out, 1)
        self.bias = _new_param(n_out) if bias else None

    def forward(self, x):
        weight = self.v * (self.g / self.v.norm(2, 1, keepdim=True))
        return F.linear(x, weight, self.bias)

    def _t7_args(self):
        return [self.n_in, self.n_out], {"bias": self.bias is not None}


class Kmeans(_T7Module):
    """torch7's nn.Kmeans(k, dim): the index of each sample's nearest centre (the rows of
    weight), 0-based (Note [Indices shifted once]); the centres are learnt by k-means updates,
    not by gradients, so they are a buffer here."""

    index_note = "gives 0-based centre indices: torch7's less 1"

    def __init__(self, k, dim):
        super().__init__()
        self.register_buffer("weight", torch.zeros(k, dim))

    def forward(self, x):
        d = (x.unsqueeze(1) - self.weight.to(x.dtype).unsqueeze(0)).pow(2).sum(2)
        return d.min(1)[1]

    def _t7_args(self):
        return list(self.weight.shape), {}


class SparseLinear(_T7Module):
    """torch7's nn.SparseLinear(inputSize, outputSize): weight [out, in] times a sparse input of
    {feature, value} rows (nnz x 2; features 0-based, Note [Indices shifted once]) plus bias;
    a list of such inputs is a batch."""

    index_note = "takes 0-based feature numbers (the first column of each input): torch7's less 1"

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        self.weight = _new_param(n_out, n_in)
        self.bias = _new_param(n_out)

    def _one(self, rows):
        if rows.dim() != 2 or rows.shape[1] != 2:
            raise RuntimeError(
                "SparseLinear: an nnz x 2 input of {feature, value} rows expected, got %s" % (tuple(rows.shape),)
            )
        features = rows[:, 0].long()
        if features.numel() and (features.min() < 0 or features.max() >= self.n_in):
            raise RuntimeError("SparseLinear: feature numbers must be in [0, %d)" % self.n_in)
        return self.bias + self.weight.index_select(1, features).matmul(rows[:, 1])

    def forward(self, x):
        if isinstance(x, (list, tuple)):
            return torch.stack([self._one(rows) for rows in x])
        if x.dim() == 3:
            return torch.stack([self._one(rows) for rows in x])
        return self._one(x)

    def _t7_args(self):
        return [self.n_in, self.n_out], {}


class LocalNormalization(_T7Module):
    """torch7's nn.SpatialSubtractiveNormalization (divisive=False) and
    SpatialDivisiveNormalization (divisive=True): kernel [1, C, kH, kW] (the module's
    meanestimator weight, normalised as torch7 normalised it) sums a window over all planes;
    coef, the same sums of ones, corrects the borders. Subtractive: x - sums(x) / coef.
    Divisive: x / t, t = s where s = sqrt(sums(x^2)) / coef > threshold, else thresval."""

    def __init__(self, planes, kh, kw, divisive=False, threshold=1e-4, thresval=1e-4):
        super().__init__()
        self.divisive, self.threshold, self.thresval = bool(divisive), float(threshold), float(thresval)
        self.register_buffer("kernel", torch.zeros(1, planes, kh, kw))

    def _sums(self, x):
        k = self.kernel.to(x.dtype)
        return F.conv2d(x, k, padding=(k.shape[2] // 2, k.shape[3] // 2))

    def forward(self, x):
        xb, single = _as_batch(x, 3)
        coef = self._sums(torch.ones((1,) + tuple(xb.shape[1:]), dtype=xb.dtype))
        if self.divisive:
            std = self._sums(xb * xb).sqrt() / coef
            t = torch.where(std > self.threshold, std, torch.full_like(std, self.thresval))
            y = xb / t
        else:
            y = xb - self._sums(xb) / coef
        return y.squeeze(0) if single else y

    def _t7_args(self):
        _, planes, kh, kw = self.kernel.shape
        return [planes, kh, kw], {"divisive": self.divisive, "threshold": self.threshold, "thresval": self.thresval}


class Convert(_T7Module):
    """torch7's nn.Convert(inputShape, outputShape) as its plan: the input's dimensions in the
    order perm (0-based), then the n_flat from flat_at (0-based) merged into one (a new
    dimension of size 1 when n_flat is 0); without a plan, the identity."""

    def __init__(self, perm=None, flat_at=None, n_flat=0):
        super().__init__()
        self.perm = None if perm is None else [int(p) for p in perm]
        self.flat_at, self.n_flat = flat_at, int(n_flat)

    def forward(self, x):
        if self.perm is None:
            return x
        if x.dim() != len(self.perm):
            raise RuntimeError("Convert: a %d-D input expected, got %s" % (len(self.perm), tuple(x.shape)))
        p = x.permute(self.perm)
        if self.flat_at is None:
            return p.contiguous()
        sizes = list(p.shape)
        a, n = self.flat_at, self.n_flat
        merged = 1
        for s in sizes[a : a + n]:
            merged *= s
        return p.reshape(sizes[:a] + [merged] + sizes[a + n :])

    def _t7_args(self):
        return [self.perm, self.flat_at, self.n_flat], {}


def _record_indices(pool, inputs, output):
    """Forward hook of a pooling module that a MaxUnpool reads: where each maximum was."""
    x = inputs[0]
    fn = F.max_pool3d if isinstance(pool, nn.MaxPool3d) else F.max_pool2d
    with torch.no_grad():
        _, indices = fn(x, pool.kernel_size, pool.stride, pool.padding, pool.dilation, pool.ceil_mode, True)
    pool._t7_unpool_state = (indices, tuple(x.shape[-(3 if isinstance(pool, nn.MaxPool3d) else 2) :]))


class MaxUnpool(_T7Module):
    """torch7's nn.SpatialMaxUnpooling(pool) / VolumetricMaxUnpooling(pool): each value back
    where pool (a MaxPool2d / MaxPool3d of the same model, given by link) found its maximum in
    its last forward, zeros elsewhere, at pool's input size. The link is not a child: the
    pooling module belongs where it runs; emit_python writes the link after construction."""

    def __init__(self, dims=2):
        super().__init__()
        self.dims = int(dims)
        self.__dict__["_pool"] = None

    def link(self, pool):
        if not isinstance(pool, nn.MaxPool3d if self.dims == 3 else nn.MaxPool2d):
            raise TypeError("MaxUnpool: a MaxPool%dd to link to, got %s" % (self.dims, type(pool).__name__))
        self.__dict__["_pool"] = pool
        pool.register_forward_hook(_record_indices)
        return self

    def _t7_link(self):
        return self._pool

    def forward(self, x):
        state = getattr(self._pool, "_t7_unpool_state", None)
        if state is None:
            raise RuntimeError("MaxUnpool: its pooling module has not run forward yet")
        indices, size = state
        pool = self._pool
        fn = F.max_unpool3d if self.dims == 3 else F.max_unpool2d
        return fn(x, indices, pool.kernel_size, pool.stride, pool.padding, output_size=size)

    def _t7_args(self):
        return [self.dims], {}


class WeightNorm(_T7Module):
    """torch7's nn.WeightNorm(module, outputDim): module's weight is g_j v_j / |v_j| for each
    slice j along output_dim (0-based); v [nOut, rest] holds the slices flattened in torch7's
    order (output_dim moved to the front), g [nOut]. The module keeps its other parameters."""

    def __init__(self, module, output_dim, weight_size):
        super().__init__()
        self.module, self.output_dim = module, int(output_dim)
        self.weight_size = [int(s) for s in weight_size]
        n_out = self.weight_size[self.output_dim]
        self.v = _new_param(n_out, math.prod(self.weight_size) // n_out)
        self.g = _new_param(n_out)
        self.module_weight_shape = list(module.weight.shape)
        del module.weight  # computed from v and g at every forward

    def forward(self, x):
        w = self.v * (self.g / self.v.norm(2, 1)).unsqueeze(1)
        front = [self.weight_size[self.output_dim]] + [
            s for d, s in enumerate(self.weight_size) if d != self.output_dim
        ]
        w = w.reshape(front).movedim(0, self.output_dim).reshape(self.module_weight_shape)
        self.module.weight = w
        return self.module(x)

    def _t7_args(self):
        return [self.module, self.output_dim, self.weight_size], {}


class PartialLinear(_T7Module):
    """torch7's nn.PartialLinear(inputSize, outputSize, bias): a Linear layer computing only the
    output columns of its partition (0-based, a buffer; Note [Indices shifted once]); weight
    [outputSize, inputSize] (torch7 keeps it in a LookupTable), bias [1, outputSize]."""

    index_note = "keeps its partition 0-based: torch7's columns less 1"

    def __init__(self, n_in, n_out, bias=True, partition=None):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        self.weight = _new_param(n_out, n_in)
        self.bias = _new_param(1, n_out) if bias else None
        self.register_buffer("partition", torch.arange(n_out) if partition is None else torch.tensor(partition))

    def set_partition(self, columns):
        self.partition = torch.as_tensor(columns, dtype=torch.int64).clone()
        return self

    def forward(self, x):
        columns = self.partition.long()
        y = x.matmul(self.weight.index_select(0, columns).t())
        return y + self.bias.index_select(1, columns) if self.bias is not None else y

    def _t7_args(self):
        return [self.n_in, self.n_out], {"bias": self.bias is not None, "partition": self.partition.tolist()}


def _fractional_starts(u, size, out, pool):
    """THNN's fractional windows of one axis for sample u in [0, 1): where each starts."""
    alpha = (size - pool) / (out - 1) if out > 1 else 0.0
    return [int((i + u) * alpha) - int(u * alpha) if i + 1 < out else size - pool for i in range(out)]


class FractionalMaxPool(_T7Module):
    """torch7's nn.SpatialFractionalMaxPooling(poolSizeW, poolSizeH, outW, outH or ratios): max
    pooling over pseudo-random windows placed by one sample per plane and axis in [0, 1). The
    samples torch7 fixed (fixPoolingRegions) are the buffer `samples` [N, C, 2] and are used
    while the input's batch and planes match; otherwise each forward draws new ones, as
    torch7 does."""

    def __init__(self, pool_w, pool_h, out_w=None, out_h=None, ratio_w=None, ratio_h=None, samples_size=None):
        super().__init__()
        self.pool_w, self.pool_h = pool_w, pool_h
        self.out_w, self.out_h, self.ratio_w, self.ratio_h = out_w, out_h, ratio_w, ratio_h
        self.register_buffer("samples", None if samples_size is None else torch.zeros(samples_size))

    def forward(self, x):
        xb, single = _as_batch(x, 3)
        n, c, h, w = xb.shape
        out_w = self.out_w if self.out_w is not None else int(math.floor(w * self.ratio_w))
        out_h = self.out_h if self.out_h is not None else int(math.floor(h * self.ratio_h))
        samples = self.samples
        if samples is None or tuple(samples.shape) != (n, c, 2):
            samples = torch.rand(n, c, 2, dtype=torch.float64)
        planes = []
        for i in range(n):
            for j in range(c):
                u_w, u_h = float(samples[i, j, 0]), float(samples[i, j, 1])
                rows = torch.tensor(_fractional_starts(u_h, h, out_h, self.pool_h)).unsqueeze(1) + torch.arange(
                    self.pool_h
                )
                cols = torch.tensor(_fractional_starts(u_w, w, out_w, self.pool_w)).unsqueeze(1) + torch.arange(
                    self.pool_w
                )
                windows = xb[i, j][rows.reshape(-1, 1), cols.reshape(1, -1)]
                windows = windows.reshape(out_h, self.pool_h, out_w, self.pool_w)
                planes.append(windows.max(3)[0].max(1)[0])
        y = torch.stack(planes).reshape(n, c, out_h, out_w)
        return y.squeeze(0) if single else y

    def _t7_args(self):
        size = None if self.samples is None else list(self.samples.shape)
        return [self.pool_w, self.pool_h], {
            "out_w": self.out_w,
            "out_h": self.out_h,
            "ratio_w": self.ratio_w,
            "ratio_h": self.ratio_h,
            "samples_size": size,
        }


class IndexLinear(_T7Module):
    """torch7's nn.IndexLinear(inputSize, outputSize, ..., keysOffset) without normalize: bias +
    the sum over (key, value) pairs of value * weight[key + keysOffset], weight [inputSize,
    outputSize], keys 0-based (Note [Indices shifted once]). Input: [keys, values] (one sample),
    [[keys...], [values...]] or [flat keys, flat values, sizes] (a batch)."""

    index_note = "takes 0-based keys: torch7's less 1"

    def __init__(self, n_in, n_out, keys_offset=0):
        super().__init__()
        self.n_in, self.n_out, self.keys_offset = n_in, n_out, int(keys_offset)
        self.weight = _new_param(n_in, n_out)
        self.bias = _new_param(n_out)

    def _one(self, keys, values):
        rows = keys.long().reshape(-1) + self.keys_offset
        if rows.numel() and (rows.min() < 0 or rows.max() >= self.n_in):
            raise RuntimeError("IndexLinear: keys (plus keysOffset) must be in [0, %d)" % self.n_in)
        return self.bias + values.reshape(1, -1).matmul(self.weight.index_select(0, rows)).reshape(-1)

    def forward(self, xs):
        if len(xs) == 3:
            keys, values, sizes = xs
            out, start = [], 0
            for n in [int(v) for v in sizes]:
                out.append(self._one(keys[start : start + n], values[start : start + n]))
                start += n
            return torch.stack(out)
        keys, values = xs
        if torch.is_tensor(keys):
            return self._one(keys, values)
        return torch.stack([self._one(k, v) for k, v in zip(keys, values)])

    def _t7_args(self):
        return [self.n_in, self.n_out], {"keys_offset": self.keys_offset}


class OneHot(_T7Module):
    """torch7's nn.OneHot(outputSize): class indices (0-based here, Note [Indices shifted
    once]; a number or a tensor of any shape) as one-hot rows of the default float type:
    the input's sizes plus a last dimension of outputSize."""

    index_note = "takes 0-based indices: torch7's less 1"

    def __init__(self, output_size):
        super().__init__()
        self.output_size = int(output_size)

    def forward(self, x):
        indices = torch.as_tensor(x).long()
        if indices.numel() and (indices.min() < 0 or indices.max() >= self.output_size):
            raise RuntimeError("OneHot: indices must be in [0, %d)" % self.output_size)
        return F.one_hot(indices, self.output_size).to(torch.get_default_dtype())

    def _t7_args(self):
        return [self.output_size], {}


class WhiteNoise(_T7Module):
    """torch7's nn.WhiteNoise(mean, std): in training x + noise drawn from N(mean, std) at
    each call, in evaluation x + mean. The noise is this package's draw, not torch7's: a
    converted model agrees with torch7 in evaluation, and in training in distribution."""

    def __init__(self, mean=0.0, std=0.1):
        super().__init__()
        self.mean, self.std = float(mean), float(std)

    def forward(self, x):
        if self.training:
            return x + torch.randn_like(x) * self.std + self.mean
        return x + self.mean if self.mean != 0 else x.clone()

    def _t7_args(self):
        return [self.mean, self.std], {}


class UpSampling(_T7Module):
    """torch7's nn.UpSampling(scale[, mode]) or ({[odepth,] oheight, owidth}, 'linear'): batches
    of images (N x C x H x W) or volumes (N x C x D x H x W), nearest neighbour by an integer
    scale, or linear (bilinear, trilinear) with corners aligned to a scale or output sizes."""

    def __init__(self, scale=None, mode="nearest", odepth=None, oheight=None, owidth=None):
        super().__init__()
        self.scale, self.mode = scale, mode
        self.odepth, self.oheight, self.owidth = odepth, oheight, owidth

    def forward(self, x):
        if x.dim() not in (4, 5):
            raise RuntimeError("UpSampling: 4D (N x C x H x W) or 5D (N x C x D x H x W) tensor expected")
        if self.mode == "nearest":
            return F.interpolate(x, scale_factor=self.scale, mode="nearest")
        if self.scale is not None:
            size = [s * self.scale for s in x.shape[2:]]
        else:
            size = [self.oheight, self.owidth] if x.dim() == 4 else [self.odepth, self.oheight, self.owidth]
        return F.interpolate(x, size=size, mode="bilinear" if x.dim() == 4 else "trilinear", align_corners=True)

    def _t7_args(self):
        return [], {
            "scale": self.scale,
            "mode": self.mode,
            "odepth": self.odepth,
            "oheight": self.oheight,
            "owidth": self.owidth,
        }


class FeatureLPPooling(_T7Module):
    """torch7's nn.FeatureLPPooling(width, stride, power, batchMode): windows of `width`
    features, `stride` apart, become (sum x^power)^(1 / power), no absolute value taken; the
    features are the first dimension (the second in batch mode)."""

    def __init__(self, width, stride, power=2.0, batch_mode=False):
        super().__init__()
        self.width, self.stride, self.power, self.batch_mode = int(width), int(stride), float(power), bool(batch_mode)

    def forward(self, x):
        dim = 1 if self.batch_mode else 0
        windows = x.unfold(dim, self.width, self.stride)  # the window's features last
        return windows.pow(self.power).sum(-1).pow(1.0 / self.power)

    def _t7_args(self):
        return [self.width, self.stride, self.power, self.batch_mode], {}


class VolumetricFractionalMaxPool(_T7Module):
    """torch7's nn.VolumetricFractionalMaxPooling(poolSizeT, poolSizeW, poolSizeH, outT, outW,
    outH or ratios): FractionalMaxPool on volumes in torch7's layout, C x H x W x T or
    N x C x H x W x T; each plane's windows are placed by three samples in [0, 1), for T, W
    and H in that order (THNN's). The samples torch7 fixed are the buffer `samples` [N, C, 3],
    used while the input's batch and planes match; otherwise each forward draws new ones."""

    def __init__(self, pool_t, pool_w, pool_h, out_t=None, out_w=None, out_h=None, ratios=None, samples_size=None):
        super().__init__()
        self.pool = (pool_h, pool_w, pool_t)
        self.out = None if out_t is None else (out_h, out_w, out_t)
        self.ratios = None if ratios is None else tuple(ratios)  # (H, W, T)
        self.register_buffer("samples", None if samples_size is None else torch.zeros(samples_size))

    def forward(self, x):
        xb, single = _as_batch(x, 4)
        n, c = xb.shape[:2]
        sizes = xb.shape[2:]
        out = self.out or tuple(int(math.floor(s * r)) for s, r in zip(sizes, self.ratios))
        samples = self.samples
        if samples is None or tuple(samples.shape) != (n, c, 3):
            samples = torch.rand(n, c, 3, dtype=torch.float64)
        planes = []
        for i in range(n):
            for j in range(c):
                u = [float(samples[i, j, 2]), float(samples[i, j, 1]), float(samples[i, j, 0])]  # H, W, T
                axes = [
                    (
                        torch.tensor(_fractional_starts(u[a], sizes[a], out[a], self.pool[a])).unsqueeze(1)
                        + torch.arange(self.pool[a])
                    ).reshape(-1)
                    for a in range(3)
                ]
                windows = xb[i, j][axes[0].reshape(-1, 1, 1), axes[1].reshape(1, -1, 1), axes[2].reshape(1, 1, -1)]
                windows = windows.reshape(out[0], self.pool[0], out[1], self.pool[1], out[2], self.pool[2])
                planes.append(windows.amax(dim=(1, 3, 5)))
        y = torch.stack(planes).reshape(n, c, *out)
        return y.squeeze(0) if single else y

    def _t7_args(self):
        size = None if self.samples is None else list(self.samples.shape)
        out = (None, None, None) if self.out is None else self.out
        return [self.pool[2], self.pool[1], self.pool[0]], {
            "out_t": out[2],
            "out_w": out[1],
            "out_h": out[0],
            "ratios": None if self.ratios is None else list(self.ratios),
            "samples_size": size,
        }
