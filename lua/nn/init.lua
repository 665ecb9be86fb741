-- `require 'nn'`: torch7's nn package over THNN (lua/csrc/THNN.cpp), loading every module
-- class so that torch.load finds the classes a saved model names.
require 'torch'

nn = nn or {}

require 'nn.utils'
require 'nn.THNN'

require 'nn.Module'
require 'nn.Container'
require 'nn.Sequential'
require 'nn.Criterion'

require 'nn.Linear'
require 'nn.Tanh'
require 'nn.Threshold'
require 'nn.ReLU'
require 'nn.LogSoftMax'

require 'nn.Jacobian'

return nn
