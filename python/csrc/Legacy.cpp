// torch._C._t7_load / _t7_save: torch7's .t7 format for Python, over legacy/'s
// one reader and writer (no second parser). This file only converts between
// t7::Value trees and Python objects; torch.utils.serialization (load_lua,
// save_lua) wraps it.
//
// Note [t7 to Python]
// - Lua numbers are doubles and come back as Python floats (as PyTorch 0.4's
// load_lua did):
//   a float saves back to the same bytes, whereas guessing int for integral
//   values would change the type of fields such as a weight decay that happens
//   to be 0.
// - Tables become lists when their keys are exactly 1..n (n >= 1, in any
// order), else dicts
//   (an empty table is an empty dict). A table met twice comes back as one
//   Python object.
// - torch.<Type>Tensor / torch.<Type>Storage become our tensors / typed
// storages on the very
//   TH structs the reader made, so tensors that shared a storage in the file
//   share one here. Contents are kept as written (Note [Index base] in
//   t7/t7.h): index-valued buffers still hold torch7's 1-based values.
// - Any other class becomes hooks.make_object(class_name) (torch.legacy's
// placeholder
//   classes), filled by hooks.set_content(obj, content) once its fields are
//   converted, so that a field referring back to the object (a cycle) finds it.
// - cutorch's torch.Cuda{Tensor,Storage} classes are read as the CPU type of the same
//   element type and pass through hooks.from_gpu(value, is_half), which makes CudaHalf
//   Float (Half is a storage format on the CPU, not a type to compute in) and moves them
//   to the GPU when the caller asked (load_lua(cuda=True)).
// - A table used as a key of another table (nngraph's mapindex is keyed by the data
//   tables of nodes) becomes hooks.key_table(is_list, n): a dict or list that hashes
//   by identity, as Lua compares tables, so that lookups with the very value work.
// - Lua functions become opaque _t7_Function handles that save back byte for
// byte.
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "t7/t7.h"
#include "python/csrc/Bind.h"

namespace torch::python {

namespace {

struct LuaFunction {
  std::shared_ptr<t7::Function> fn;
};

// The core's types begin with TH's, in the table's order (core/ScalarType.h).
ScalarType torchType(t7::ScalarType t) { return static_cast<ScalarType>(t); }

// Tensor::adopt and Storage::adopt take over a reference; the t7 value keeps
// its own.
#define RETAIN_TH(Name, T, ...)                                    \
  void retainTH(TH##Name##Tensor *t) { t7::detail::retain<T>(t); } \
  void retainTH(TH##Name##Storage *s) { t7::detail::retain<T>(s); }
TH_FORALL_TYPES(RETAIN_TH)
#undef RETAIN_TH

// Class names and versions are bytes in the file: as str with undecodable bytes
// escaped (surrogateescape), so that they save back unchanged.
py::object text(const std::string &s) {
  PyObject *r = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
  if (!r) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(r);
}

std::string bytesOf(py::handle s) {
  TORCH_CHECK(PyUnicode_Check(s.ptr()), Type, "save_lua: a class name or version must be a str, got %s",
              Py_TYPE(s.ptr())->tp_name);
  PyObject *b = PyUnicode_AsEncodedString(s.ptr(), "utf-8", "surrogateescape");
  if (!b) throw py::error_already_set();
  return std::string(py::reinterpret_steal<py::bytes>(b));
}

class ToPython {
 public:
  explicit ToPython(py::handle hooks) : hooks_(hooks) {}

  py::object operator()(const t7::Value &root) {
    findKeyTables(root);
    return convert(root);
  }

 private:
  // Tables that some table uses as a key (see Note [t7 to Python]), found before any
  // conversion: such a table must be made hashable when it is first met, maybe as a value.
  void findKeyTables(const t7::Value &root) {
    std::unordered_set<const void *> seen;
    std::vector<t7::Value> unvisited{root};
    while (!unvisited.empty()) {
      t7::Value v = std::move(unvisited.back());
      unvisited.pop_back();
      if (v.kind() == t7::Value::Kind::Recursive) continue;  // its target is being walked
      const void *id = v.identity();
      if (!id || !seen.insert(id).second) continue;
      if (v.kind() == t7::Value::Kind::Table) {
        for (const auto &[k, item] : v.table()->entries) {
          if (k.target().kind() == t7::Value::Kind::Table) keyTables_.insert(k.identity());
          unvisited.push_back(k);
          unvisited.push_back(item);
        }
      } else if (v.kind() == t7::Value::Kind::Object) {
        unvisited.push_back(v.object()->content);
      } else if (v.kind() == t7::Value::Kind::Function) {
        unvisited.push_back(v.function()->upvalues);
      }
    }
  }

  py::object convert(const t7::Value &v, int depth = 0) {
    if (depth > t7::kMaxDepth) throw t7::Error("t7: values nested too deeply");
    switch (v.kind()) {
      case t7::Value::Kind::Nil: return py::none();
      case t7::Value::Kind::Number: return py::float_(v.number());
      case t7::Value::Kind::Boolean: return py::bool_(v.boolean());
      case t7::Value::Kind::String: {
        const std::string &s = v.string();
        // Lua strings are bytes: text when it decodes, bytes otherwise (saved
        // back unchanged).
        PyObject *text = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "strict");
        if (text) return py::reinterpret_steal<py::object>(text);
        PyErr_Clear();
        return py::bytes(s);
      }
      case t7::Value::Kind::Recursive: {
        auto it = memo_.find(v.identity());
        if (it != memo_.end()) return it->second;
        t7::Value target = v.target();
        if (target.isNil()) return py::none();
        return convert(target, depth + 1);
      }
      case t7::Value::Kind::Table: return table(v.table(), depth);
      case t7::Value::Kind::Object: return object(v.object(), depth);
      case t7::Value::Kind::Function: {
        auto it = memo_.find(v.identity());
        if (it != memo_.end()) return it->second;
        py::object f = py::cast(LuaFunction{v.function()});
        memo_[v.identity()] = f;
        return f;
      }
    }
    throw t7::Error("t7: bad value kind");
  }

  py::object table(const std::shared_ptr<t7::Table> &t, int depth) {
    auto it = memo_.find(t.get());
    if (it != memo_.end()) return it->second;
    size_t n = t->size();
    bool isList = n > 0;
    if (isList) {
      std::vector<bool> seen(n, false);
      for (const auto &[k, _] : t->entries) {
        if (k.kind() != t7::Value::Kind::Number) {
          isList = false;
          break;
        }
        double d = k.number();
        if (!(d >= 1 && d <= static_cast<double>(n)) || d != static_cast<double>(static_cast<size_t>(d)) ||
            seen[static_cast<size_t>(d) - 1]) {
          isList = false;
          break;
        }
        seen[static_cast<size_t>(d) - 1] = true;
      }
    }
    if (keyTables_.count(t.get())) {
      py::object out = hooks_.attr("key_table")(isList, n);
      memo_[t.get()] = out;
      for (const auto &[k, v] : t->entries) {
        if (isList)
          out[py::int_(static_cast<size_t>(k.number()) - 1)] = convert(v, depth + 1);
        else
          out[dictKey(k, depth)] = convert(v, depth + 1);
      }
      return out;
    }
    if (isList) {
      py::list out(n);
      for (size_t i = 0; i < n; i++) out[i] = py::none();
      memo_[t.get()] = out;
      for (const auto &[k, v] : t->entries) out[static_cast<size_t>(k.number()) - 1] = convert(v, depth + 1);
      return out;
    }
    py::dict out;
    memo_[t.get()] = out;
    for (const auto &[k, v] : t->entries) out[dictKey(k, depth)] = convert(v, depth + 1);
    return out;
  }

  py::object dictKey(const t7::Value &k, int depth) {
    py::object key = convert(k, depth + 1);
    if (PyObject_Hash(key.ptr()) == -1) {
      PyErr_Clear();
      throw t7::Error(std::string("t7: a table key of kind ") + k.kindName() +
                      " has no Python equivalent usable as a dict key");
    }
    return key;
  }

  py::object object(const std::shared_ptr<t7::Object> &o, int depth) {
    auto it = memo_.find(o.get());
    if (it != memo_.end()) return it->second;
    py::object out;
    if (o->tensor) {
      out = o->tensor.visit([&](auto *p) {
        retainTH(p);
        return py::cast(Tensor::adopt(torchType(o->tensor.type()), p, Device::CPU));
      });
      if (isCuda(o->className)) out = hooks_.attr("from_gpu")(out, isCudaHalf(o->className));
    } else if (o->storage) {
      out = o->storage.visit([&](auto *p) {
        retainTH(p);
        return hooks_.attr("wrap_storage")(py::cast(Storage::adopt(torchType(o->storage.type()), p, Device::CPU)));
      });
      if (isCuda(o->className)) out = hooks_.attr("from_gpu")(out, isCudaHalf(o->className));
    } else if (o->className.size() > 6 &&
               (o->className.compare(o->className.size() - 6, 6, "Tensor") == 0 ||
                o->className.compare(o->className.size() - 7, 7, "Storage") == 0) &&
               o->className.rfind("torch.", 0) == 0) {
      throw t7::Error("t7: " + o->className + " object without its data");
    } else {
      out = hooks_.attr("make_object")(text(o->className), text(o->version));
      memo_[o.get()] = out;
      hooks_.attr("set_content")(out, convert(o->content, depth + 1));
      return out;
    }
    memo_[o.get()] = out;
    return out;
  }

  static bool isCuda(const std::string &className) { return className.rfind("torch.Cuda", 0) == 0; }
  static bool isCudaHalf(const std::string &className) { return className.rfind("torch.CudaHalf", 0) == 0; }

  py::handle hooks_;
  std::unordered_map<const void *, py::object> memo_;
  std::unordered_set<const void *> keyTables_;
};

// Python -> t7::Value (save_lua).
class FromPython {
 public:
  explicit FromPython(py::handle hooks) : hooks_(hooks) {}

  t7::Value convert(py::handle obj, int depth = 0) {
    if (depth > t7::kMaxDepth) throw t7::Error("t7: values nested too deeply to save");
    if (obj.is_none()) return t7::Value();
    if (PyBool_Check(obj.ptr())) return t7::Value(obj.ptr() == Py_True);
    if (PyLong_Check(obj.ptr())) {
      int overflow = 0;
      long long i = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
      TORCH_CHECK(!overflow && i >= -(1LL << 53) && i <= (1LL << 53), Value,
                  "save_lua: the integer %s cannot be stored exactly as a Lua "
                  "number (a double)",
                  py::str(obj).cast<std::string>().c_str());
      return t7::Value(static_cast<double>(i));
    }
    if (PyFloat_Check(obj.ptr())) return t7::Value(PyFloat_AsDouble(obj.ptr()));
    if (PyUnicode_Check(obj.ptr())) return t7::Value(obj.cast<std::string>());
    if (PyBytes_Check(obj.ptr())) return t7::Value(std::string(py::reinterpret_borrow<py::bytes>(obj)));
    if (isTensor(obj)) return tensorValue(obj);
    if (py::isinstance<Storage>(obj)) return storageValue(obj);
    if (py::isinstance<LuaFunction>(obj)) return t7::Value(obj.cast<const LuaFunction &>().fn);

    const void *id = obj.ptr();
    auto it = memo_.find(id);
    if (it != memo_.end()) {
      // Met again inside itself: a weak back reference, as the reader makes
      // (Note [Cycles]), so that the saved tree owns no cycle of shared_ptrs.
      return active_.count(id) ? t7::Value::recursive(it->second) : it->second;
    }
    if (PyDict_Check(obj.ptr()) || PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
      auto t = std::make_shared<t7::Table>();
      memo_[id] = t7::Value(t);
      active_.insert(id);
      if (PyDict_Check(obj.ptr())) {
        // A Lua table has no nil-valued entries: assigning nil removes the key.
        for (auto [k, v] : py::reinterpret_borrow<py::dict>(obj)) {
          t7::Value k7 = key(k, depth);
          if (!v.is_none()) t->entries.emplace_back(std::move(k7), convert(v, depth + 1));
        }
      } else {
        size_t i = 0;
        for (py::handle v : obj) {
          i++;
          if (!v.is_none()) t->entries.emplace_back(t7::Value(static_cast<double>(i)), convert(v, depth + 1));
        }
      }
      active_.erase(id);
      return memo_[id];
    }
    py::object typeName = hooks_.attr("typename_of")(obj);
    if (!typeName.is_none()) {
      auto o = t7::makeObject(bytesOf(typeName), t7::Value());
      o->version = bytesOf(hooks_.attr("version_of")(obj));
      memo_[id] = t7::Value(o);
      active_.insert(id);
      // content_of makes a new dict: held until the end, so that no later one gets its
      // address and passes for it in memo_
      contents_.push_back(hooks_.attr("content_of")(obj));
      o->content = convert(contents_.back(), depth + 1);
      active_.erase(id);
      return memo_[id];
    }
    // numpy scalars and other number-likes
    if (py::hasattr(obj, "__index__")) return convert(py::int_(py::reinterpret_borrow<py::object>(obj)), depth);
    if (py::hasattr(obj, "__float__"))
      return t7::Value(py::float_(py::reinterpret_borrow<py::object>(obj)).cast<double>());
    TORCH_CHECK(false, Type, "save_lua: cannot save an object of type %s in a .t7 file", Py_TYPE(obj.ptr())->tp_name);
  }

 private:
  // Besides strings, numbers and booleans: what load_lua gives for a table or object used as
  // a key (a hashable dict or list, a torch7 object), so that such files save back.
  t7::Value key(py::handle k, int depth) {
    TORCH_CHECK(PyBool_Check(k.ptr()) || PyLong_Check(k.ptr()) || PyFloat_Check(k.ptr()) || PyUnicode_Check(k.ptr()) ||
                    PyBytes_Check(k.ptr()) || PyDict_Check(k.ptr()) || PyList_Check(k.ptr()) ||
                    !hooks_.attr("typename_of")(k).is_none(),
                Type, "save_lua: dict keys must be strings, numbers, booleans, tables or torch7 objects, got %s",
                Py_TYPE(k.ptr())->tp_name);
    return convert(k, depth + 1);
  }

  // torch7 has no bfloat16 (kept in a Half storage here) and no complex types (kept in a
  // real storage of twice the size): either would be written as another type's data.
  static void checkTorch7Type(ScalarType type) {
    TORCH_CHECK(type != ScalarType::BFloat16 && !isComplex(type), Type,
                "save_lua: torch7 has no tensors or storages of type %s", dtypeName(type));
  }

  static t7::Value tensorValue(py::handle obj) {
    const Tensor &t = unwrap(obj);
    checkTorch7Type(t.dtype());
    return dispatch(t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return t7::Value(t7::Tensor(reinterpret_cast<t7::detail::TensorOf<T> *>(t.impl()->th)));
    });
  }

  static t7::Value storageValue(py::handle obj) {
    const Storage &s = obj.cast<const Storage &>();
    checkTorch7Type(s.dtype());
    return dispatch(s.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return t7::Value(t7::Storage(reinterpret_cast<t7::detail::StorageOf<T> *>(s.raw())));
    });
  }

  py::handle hooks_;
  // Containers saved so far, by Python identity: met again, the same t7 value
  // (written once).
  std::unordered_map<const void *, t7::Value> memo_;
  // Containers being converted: one met again among them closes a cycle.
  std::unordered_set<const void *> active_;
  std::vector<py::object> contents_;
};

// A t7::Error as RuntimeError. Its message may quote bytes of a corrupt file (a
// class name), which are not always UTF-8: those are shown escaped rather than
// failing to decode.
[[noreturn]] void raiseT7(const t7::Error &e) {
  const char *msg = e.what();
  PyObject *text = PyUnicode_DecodeUTF8(msg, static_cast<Py_ssize_t>(std::strlen(msg)), "backslashreplace");
  if (text) {
    PyErr_SetObject(PyExc_RuntimeError, text);
    Py_DECREF(text);
  }
  throw py::error_already_set();
}

t7::ReadOptions readOptions(int longSize, bool allowFunctions) {
  t7::ReadOptions options;
  options.longSize = longSize;
  options.allowFunctions = allowFunctions;
  return options;
}

}  // namespace

void bindLegacy(py::module &m, TensorClass &) {
  py::class_<LuaFunction>(m, "_t7_Function")
      .def_property_readonly("bytecode", [](const LuaFunction &f) { return py::bytes(f.fn->bytecode); })
      .def_property_readonly("tag", [](const LuaFunction &f) { return static_cast<int>(f.fn->tag); })
      .def("__repr__", [](const LuaFunction &f) {
        return "<Lua function, " + std::to_string(f.fn->bytecode.size()) + " bytes of bytecode>";
      });

  m.def(
      "_t7_load",
      [](py::bytes data, int longSize, py::handle hooks, bool allowFunctions) {
        std::string_view bytes = data;
        try {
          t7::Value v;
          {
            py::gil_scoped_release release;
            v = t7::load(bytes.data(), bytes.size(), readOptions(longSize, allowFunctions));
          }
          return ToPython(hooks)(v);
        } catch (const t7::Error &e) {
          raiseT7(e);
        }
      },
      py::arg("data"), py::arg("long_size"), py::arg("hooks"), py::arg("allow_functions") = true);

  m.def(
      "_t7_save",
      [](py::handle obj, const std::string &format, int longSize, py::handle hooks) {
        t7::WriteOptions options;
        TORCH_CHECK(format == "binary" || format == "ascii", Value,
                    "save_lua: format must be 'binary' or 'ascii', got '%s'", format.c_str());
        TORCH_CHECK(longSize == 4 || longSize == 8, Value, "save_lua: long_size must be 4 or 8, got %d", longSize);
        options.format = format == "ascii" ? t7::Format::Ascii : t7::Format::Binary;
        options.longSize = longSize;
        try {
          t7::Value v = FromPython(hooks).convert(obj);
          std::string bytes = withoutGil([&] { return t7::save(v, options); });
          return py::bytes(bytes);
        } catch (const t7::Error &e) {
          raiseT7(e);
        }
      },
      py::arg("obj"), py::arg("format"), py::arg("long_size"), py::arg("hooks"));
}

}  // namespace torch::python
