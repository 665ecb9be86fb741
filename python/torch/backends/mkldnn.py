"""torch.backends.mkldnn: oneDNN (formerly MKL-DNN) runs the float convolutions on the CPU
(Note [oneDNN convolution] in THNN/dnnl/Convolution.cpp). `enabled` is kept for programs that
set it, and read by nothing: THNN_CONV_IM2COL=1 in the environment is what turns oneDNN off
(an environment variable changed while kernels run in other threads would not be safe)."""

enabled = True


def is_available():
    return True
