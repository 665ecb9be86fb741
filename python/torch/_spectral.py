"""torch.stft and torch.istft (PyTorch 1.13's signatures and checks), over torch.fft's
transforms: frames are the signal's unfold, overlap-add is nn.functional.fold, so autograd runs
through both."""

import math
import warnings

import torch
import torch.nn.functional as F
from torch._C import Tensor
from torch.amp.autocast_mode import float32_under_autocast


def _describe(t):
    return "torch.%s[%s]" % (torch.Tensor.type(t).split(".")[-1], ", ".join(str(s) for s in t.shape))


def _padded_window(window, win_length, n_fft, dtype):
    """The window (ones by default) centred in n_fft points."""
    if window is None:
        window = torch.ones(win_length, dtype=dtype)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        full = torch.zeros(n_fft, dtype=window.dtype)
        full[left : left + win_length] = window
        window = full
    return window


@float32_under_autocast
def stft(
    input,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    center=True,
    pad_mode="reflect",
    normalized=False,
    onesided=None,
    return_complex=None,
):
    """Short-time Fourier transform: the (n_fft // 2 + 1 or n_fft) x frames spectra of windowed
    frames of input (1-D, or 2-D for a batch), frames hop_length apart."""
    if not isinstance(input, Tensor):
        raise TypeError("stft(): argument 'input' (position 1) must be Tensor, not %s" % type(input).__name__)
    if return_complex is None:
        if not input.is_complex() and (window is None or not window.is_complex()):
            warnings.warn(
                "stft will soon require the return_complex parameter be given for real inputs, and will further "
                "require that return_complex=True in a future PyTorch release."
            )
        return_complex = input.is_complex() or (window is not None and window.is_complex())
    if center:
        signal_dim = input.dim()
        extended = [1] * (3 - signal_dim) + list(input.shape)
        pad = n_fft // 2
        framed = input.view(extended)
        if framed.is_complex():  # padded part by part
            framed = torch.complex(F.pad(framed.real, [pad, pad], pad_mode), F.pad(framed.imag, [pad, pad], pad_mode))
        else:
            framed = F.pad(framed, [pad, pad], pad_mode)
        input = framed
        input = input.view(input.shape[-signal_dim:])
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length

    def fail(what):
        raise RuntimeError(
            "stft(%s, n_fft=%d, hop_length=%d, win_length=%d, window=%s, normalized=%d, onesided=%s, "
            "return_complex=%d) : %s"
            % (
                _describe(input),
                n_fft,
                hop_length,
                win_length,
                "None"
                if window is None
                else "torch.%s{[%d]}" % (torch.Tensor.type(window).split(".")[-1], window.numel()),
                normalized,
                onesided,
                return_complex,
                what,
            )
        )

    if input.dim() not in (1, 2):
        fail("expected a 1D or 2D tensor")
    batched = input.dim() == 2
    x = input if batched else input.unsqueeze(0)
    length = x.shape[-1]
    if not 0 < n_fft <= length:
        fail("expected 0 < n_fft < %d, but got n_fft=%d" % (length, n_fft))
    if hop_length <= 0:
        fail("expected hop_length > 0, but got hop_length=%d" % hop_length)
    if not 0 < win_length <= n_fft:
        fail("expected 0 < win_length <= n_fft, but got win_length=%d" % win_length)
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        fail(
            "expected a 1D window tensor of size equal to win_length=%d, but got window with size %s"
            % (win_length, list(window.shape))
        )
    complex_data = x.is_complex() or (window is not None and window.is_complex())
    if onesided is None:
        onesided = not complex_data
    if onesided and complex_data:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    if not x.is_floating_point() and not x.is_complex():
        x = x.to(torch.get_default_dtype())
    win = _padded_window(window, win_length, n_fft, x.real.dtype if x.is_complex() else x.dtype)
    frames = x.unfold(-1, n_fft, hop_length) * win  # (batch, frames, n_fft)
    norm = "ortho" if normalized else "backward"
    spectra = torch.fft.rfft(frames, norm=norm) if onesided else torch.fft.fft(frames, norm=norm)
    out = spectra.transpose(1, 2)
    if not batched:
        out = out.squeeze(0)
    return out if return_complex else torch.view_as_real(out)


def _overlap_add(frames, hop_length, total):
    """frames (batch, n_frames, n_fft) summed into (batch, total) signals, frame f at f * hop_length."""
    n_fft = frames.shape[-1]
    summed = F.fold(frames.transpose(1, 2), output_size=(1, total), kernel_size=(1, n_fft), stride=(1, hop_length))
    return summed.reshape(frames.shape[0], total)


def istft(
    input,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    center=True,
    normalized=False,
    onesided=None,
    length=None,
    return_complex=False,
):
    """Inverse short-time Fourier transform: the signal whose stft is input (least squares over
    the overlapping frames)."""
    if not isinstance(input, Tensor):
        raise TypeError("istft(): argument 'input' (position 1) must be Tensor, not %s" % type(input).__name__)
    if not input.is_complex():
        warnings.warn("istft will require a complex-valued input tensor in a future PyTorch release.")
        input = torch.view_as_complex(input)
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if input.dim() not in (2, 3):
        raise RuntimeError("istft: expected a tensor with 2 or 3 dimensions of complex, got %d" % input.dim())
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    fft_size, n_frames = x.shape[-2], x.shape[-1]
    if onesided is None:
        onesided = fft_size != n_fft
    if onesided and fft_size != n_fft // 2 + 1:
        raise RuntimeError(
            "istft: expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 "
            "when onesided=True, but got %d" % fft_size
        )
    if not onesided and fft_size != n_fft:
        raise RuntimeError(
            "istft: expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when "
            "onesided=False, but got %d" % fft_size
        )
    if not 0 < hop_length <= win_length:
        raise RuntimeError("istft: expected 0 < hop_length <= win_length")
    if not 0 < win_length <= n_fft:
        raise RuntimeError("istft: expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        raise RuntimeError("istft: expected a 1D window tensor of size equal to win_length=%d" % win_length)
    if return_complex and onesided:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    real_type = x.real.dtype
    win = _padded_window(window, win_length, n_fft, real_type)
    spectra = x.transpose(1, 2)  # (batch, frames, freq)
    if normalized:
        spectra = spectra * math.sqrt(n_fft)
    if return_complex:
        frames = torch.fft.ifft(spectra, n_fft, -1)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not onesided:
            spectra = spectra.narrow(-1, 0, n_fft // 2 + 1)
        frames = torch.fft.irfft(spectra, n_fft, -1)
    frames = frames * win
    total = n_fft + hop_length * (n_frames - 1)
    if frames.is_complex():
        parts = torch.view_as_real(frames)
        y = torch.complex(
            _overlap_add(parts[..., 0], hop_length, total), _overlap_add(parts[..., 1], hop_length, total)
        )
    else:
        y = _overlap_add(frames, hop_length, total)
    envelope = _overlap_add((win * win).expand(1, n_frames, n_fft), hop_length, total)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    else:
        end = total - n_fft // 2 if center else total
    end = min(end, total)
    y = y[:, start:end]
    envelope = envelope[:, start:end]
    lowest = envelope.abs().min()
    if not lowest > 1e-11:
        raise RuntimeError(
            "istft(%s, n_fft=%d, hop_length=%d, win_length=%d, ...) window overlap add min: %s"
            % (_describe(input), n_fft, hop_length, win_length, lowest.item())
        )
    y = y / envelope
    if length is not None and y.shape[-1] < length:
        warnings.warn(
            "The length of signal is shorter than the length parameter. Result is being padded with zeros in the "
            "tail. Please check your center and hop_length settings."
        )
        y = torch.cat([y, torch.zeros(y.shape[0], length - y.shape[-1], dtype=y.dtype)], -1)
    return y if batched else y.squeeze(0)


torch.stft = stft
torch.istft = istft
Tensor.stft = stft
Tensor.istft = istft
