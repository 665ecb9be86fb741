"""Batch normalization: BatchNorm1d/2d/3d over a batch's statistics, with running
estimates for evaluation."""

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm"]


class _NormBase(Module):
    """Parameters (weight, bias) and running statistics (running_mean, running_var,
    num_batches_tracked) shared by batch and instance normalization."""

    _version = 2

    def __init__(
        self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None
    ):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(torch.empty(num_features, device=device, dtype=dtype))
            self.bias = Parameter(torch.empty(num_features, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", torch.ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return (
            "{num_features}, eps={eps}, momentum={momentum}, affine={affine}, "
            "track_running_stats={track_running_stats}".format(**self.__dict__)
        )

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        version = local_metadata.get("version", None)
        if (version is None or version < 2) and self.track_running_stats:
            # num_batches_tracked appeared in version 2: older files start it at 0
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = torch.tensor(0, dtype=torch.long)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        # momentum None: the running statistics are the cumulative average of all batches
        exponential_average_factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                exponential_average_factor = 1.0 / float(self.num_batches_tracked)
        if self.training:
            bn_training = True
        else:
            bn_training = self.running_mean is None and self.running_var is None
        use_running = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if use_running else None,
            self.running_var if use_running else None,
            self.weight,
            self.bias,
            bn_training,
            exponential_average_factor,
            self.eps,
        )


class BatchNorm1d(_BatchNorm):
    """Normalizes (N, C) or (N, C, L) inputs per channel C."""

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError("expected 2D or 3D input (got {}D input)".format(input.dim()))


class BatchNorm2d(_BatchNorm):
    """Normalizes (N, C, H, W) inputs per channel C."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError("expected 4D input (got {}D input)".format(input.dim()))


class BatchNorm3d(_BatchNorm):
    """Normalizes (N, C, D, H, W) inputs per channel C."""

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError("expected 5D input (got {}D input)".format(input.dim()))


class _SyncBatchNormFunction(torch.autograd.Function):
    """Batch normalization over every rank's batch: the per-channel sums, sums of squares and
    counts are all-reduced in forward, the two gradient sums in backward (the gradient of the
    sum of every rank's loss, which DistributedDataParallel then averages like any other)."""

    @staticmethod
    def forward(ctx, input, weight, bias, running_mean, running_var, eps, momentum, group):
        import torch.distributed as dist

        channels = input.shape[1]
        x = input.detach().transpose(0, 1).reshape(channels, -1).double()
        count = torch.tensor([float(x.shape[1])], dtype=torch.float64, device=x.device)
        stats = torch.cat([x.sum(1), (x * x).sum(1), count])
        dist.all_reduce(stats, group=group)
        count = stats[-1]
        mean = stats[:channels] / count
        var = (stats[channels : 2 * channels] / count - mean * mean).clamp_(min=0)
        if running_mean is not None:
            with torch.no_grad():
                running_mean.mul_(1 - momentum).add_(mean.to(running_mean.dtype), alpha=momentum)
                unbiased = var * count / max(float(count) - 1, 1.0)
                running_var.mul_(1 - momentum).add_(unbiased.to(running_var.dtype), alpha=momentum)
        invstd = (var + eps).rsqrt()
        shape = [1, channels] + [1] * (input.dim() - 2)
        xhat = (input.detach().double() - mean.view(shape)) * invstd.view(shape)
        out = (
            xhat if weight is None else xhat * weight.detach().double().view(shape) + bias.detach().double().view(shape)
        )
        ctx.save_for_backward(input, weight)
        ctx.stats = (mean, invstd, count)
        ctx.group = group
        return out.to(input.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        import torch.distributed as dist

        input, weight = ctx.saved_tensors
        mean, invstd, count = ctx.stats
        channels = input.shape[1]
        shape = [1, channels] + [1] * (input.dim() - 2)
        g = grad_output.double()
        xmu = input.double() - mean.view(shape)
        dims = [d for d in range(input.dim()) if d != 1]
        sum_dy = g.sum(dims)
        sum_dy_xmu = (g * xmu).sum(dims)
        grad_weight = (sum_dy_xmu * invstd).to(input.dtype) if weight is not None else None
        grad_bias = sum_dy.to(input.dtype) if weight is not None else None
        totals = torch.cat([sum_dy, sum_dy_xmu])
        dist.all_reduce(totals, group=ctx.group)
        scale = invstd if weight is None else invstd * weight.double()
        grad_input = (
            g
            - (totals[:channels] / count).view(shape)
            - xmu * (invstd * invstd * totals[channels:] / count).view(shape)
        ) * scale.view(shape)
        return grad_input.to(input.dtype), grad_weight, grad_bias, None, None, None, None, None


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose training statistics cover the batches of every process of a
    torch.distributed group (PyTorch's needs CUDA; this one runs on the CPU, over Gloo or MPI).
    With one process, or in evaluation, it is BatchNorm."""

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        process_group=None,
        device=None,
        dtype=None,
    ):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError("expected at least 2D input (got {}D input)".format(input.dim()))

    def forward(self, input):
        import torch.distributed as dist

        self._check_input_dim(input)
        distributed = self.training and dist.is_initialized() and dist.get_world_size(self.process_group) > 1
        if not distributed:
            return super().forward(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked)
        return _SyncBatchNormFunction.apply(
            input, self.weight, self.bias, self.running_mean, self.running_var, self.eps, factor, self.process_group
        )

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """module with every BatchNorm*d replaced by a SyncBatchNorm holding its parameters and
        running statistics."""
        converted = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            converted = SyncBatchNorm(
                module.num_features,
                module.eps,
                module.momentum,
                module.affine,
                module.track_running_stats,
                process_group,
            )
            if module.affine:
                with torch.no_grad():
                    converted.weight = module.weight
                    converted.bias = module.bias
            converted.running_mean = module.running_mean
            converted.running_var = module.running_var
            converted.num_batches_tracked = module.num_batches_tracked
            converted.training = module.training
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted
