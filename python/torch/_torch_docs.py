"""The shared paragraphs of PyTorch 1.13's docstrings that torch.nn.functional re-exports
(reproducibility_notes, sparse_support_notes, tf32_notes), in this package's words."""

reproducibility_notes = {
    "forward_reproducibility_note": "This operation may behave nondeterministically when given tensors on a "
    "CUDA device. See the notes on reproducibility.",
    "backward_reproducibility_note": "This operation may produce nondeterministic gradients when given tensors "
    "on a CUDA device. See the notes on reproducibility.",
    "cudnn_reproducibility_note": "In some circumstances when given tensors on a CUDA device and using cuDNN, "
    "this operator may select a nondeterministic algorithm to increase performance. If this is undesirable, "
    "you can try to make the operation deterministic (potentially at a performance cost) by setting "
    "torch.backends.cudnn.deterministic = True.",
}

sparse_support_notes = {
    "sparse_beta_warning": "Sparse support is a beta feature and some layout(s)/dtype/device combinations may "
    "not be supported, or may not have autograd support.",
}

tf32_notes = {
    "tf32_note": "This operator supports TensorFloat32 on CUDA devices.",
}
