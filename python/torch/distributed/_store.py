"""torch.distributed's key-value stores: TCPStore, FileStore, HashStore, PrefixStore.

The ranks of a group meet through a store (Gloo's rendezvous exchanges the ranks' addresses
through it) and programs use it directly. Values are bytes; `add` keeps a decimal integer,
as PyTorch's stores do, so `get` of a counter reads b"3".

TCPStore's server is a thread of the process created with `is_master=True`; every store
object, the master's included, talks to it over one TCP connection with length-prefixed
pickled requests. A blocking `get`/`wait` is answered by the server when the keys exist,
or with a timeout error, so clients never poll.
"""

import atexit
import fcntl
import os
import pickle
import socket
import struct
import threading
import time
from datetime import timedelta

__all__ = ["Store", "TCPStore", "FileStore", "HashStore", "PrefixStore"]

default_store_timeout = timedelta(seconds=300)


def _seconds(timeout):
    if timeout is None:
        return None
    if isinstance(timeout, timedelta):
        return timeout.total_seconds()
    return float(timeout)


def _as_bytes(value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, (list, tuple)):  # PyTorch accepts a list of byte values
        return bytes(value)
    raise TypeError(f"a store value must be str or bytes, got {type(value).__name__}")


class _Table:
    """The key-value table behind HashStore and TCPStore's server: one condition variable
    wakes the waiters whenever a key is written."""

    def __init__(self):
        self.data = {}
        self.cond = threading.Condition()

    def set(self, key, value):
        with self.cond:
            self.data[key] = value
            self.cond.notify_all()

    def compare_set(self, key, expected, desired):
        with self.cond:
            current = self.data.get(key)
            if current is None and expected == b"" or current == expected:
                self.data[key] = desired
                self.cond.notify_all()
                return desired
            return expected if current is None else current

    def add(self, key, amount):
        with self.cond:
            value = int(self.data.get(key, b"0")) + int(amount)
            self.data[key] = str(value).encode()
            self.cond.notify_all()
            return value

    def wait(self, keys, timeout):
        deadline = None if timeout is None else time.monotonic() + timeout
        with self.cond:
            while not all(k in self.data for k in keys):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    missing = [k for k in keys if k not in self.data]
                    raise RuntimeError(f"Wait timeout after {timeout:g} s for the keys {missing}")
                self.cond.wait(left)

    def get(self, key, timeout):
        self.wait([key], timeout)
        with self.cond:
            return self.data[key]

    def check(self, keys):
        with self.cond:
            return all(k in self.data for k in keys)

    def delete_key(self, key):
        with self.cond:
            return self.data.pop(key, None) is not None

    def num_keys(self):
        with self.cond:
            return len(self.data)


class Store:
    """The interface every store has (torch.distributed.Store)."""

    def __init__(self, timeout=default_store_timeout):
        self._timeout = _seconds(timeout)

    @property
    def timeout(self):
        return timedelta(seconds=self._timeout)

    def set_timeout(self, timeout):
        self._timeout = _seconds(timeout)

    def _wait_seconds(self, timeout):
        return self._timeout if timeout is None else _seconds(timeout)


class HashStore(Store):
    """A store inside one process (threads share it)."""

    def __init__(self):
        super().__init__()
        self._table = _Table()

    def set(self, key, value):
        self._table.set(key, _as_bytes(value))

    def get(self, key):
        return self._table.get(key, self._timeout)

    def add(self, key, amount):
        return self._table.add(key, amount)

    def compare_set(self, key, expected_value, desired_value):
        return self._table.compare_set(key, _as_bytes(expected_value), _as_bytes(desired_value))

    def wait(self, keys, timeout=None):
        self._table.wait(list(keys), self._wait_seconds(timeout))

    def check(self, keys):
        return self._table.check(list(keys))

    def delete_key(self, key):
        return self._table.delete_key(key)

    def num_keys(self):
        return self._table.num_keys()


def _send_message(sock, obj):
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(struct.pack("<Q", len(payload)) + payload)


def _receive_exactly(sock, n):
    chunks = []
    while n:
        chunk = sock.recv(min(n, 1 << 20))
        if not chunk:
            raise ConnectionError("the store's peer closed the connection")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _receive_message(sock):
    (n,) = struct.unpack("<Q", _receive_exactly(sock, 8))
    return pickle.loads(_receive_exactly(sock, n))


class _TCPStoreServer:
    """Serves one _Table to every connection, a thread per connection (blocking gets wait
    on the table's condition variable, not on the other clients)."""

    def __init__(self, host, port):
        self.table = _Table()
        family = socket.AF_INET6 if ":" in (host or "") else socket.AF_INET
        self.listener = socket.socket(family, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.listener.bind(("" if family == socket.AF_INET else "::", port))
        except OSError as e:
            self.listener.close()
            raise RuntimeError(f"TCPStore: the server cannot listen on port {port}: {e.strerror}") from None
        self.listener.listen(128)
        self.port = self.listener.getsockname()[1]
        self.closed = False
        self.connections = 0
        self.connections_changed = threading.Condition()
        threading.Thread(target=self._accept, name="TCPStore server", daemon=True).start()

    def linger(self, grace=5.0):
        """The process serving the store waits (up to grace seconds) for the other processes'
        connections to close before it ends it: they may still be reading their last answers."""
        deadline = time.monotonic() + grace
        with self.connections_changed:
            while self.connections > 0 and time.monotonic() < deadline:
                self.connections_changed.wait(deadline - time.monotonic())

    def _accept(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return  # closed
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        with self.connections_changed:
            self.connections += 1
        try:
            self._answer(conn)
        finally:
            with self.connections_changed:
                self.connections -= 1
                self.connections_changed.notify_all()

    def _answer(self, conn):
        table = self.table
        with conn:
            while True:
                try:
                    op, args = _receive_message(conn)
                except (ConnectionError, OSError, EOFError):
                    return
                try:
                    result = (True, getattr(table, op)(*args))
                except Exception as e:  # the client raises it
                    result = (False, str(e))
                try:
                    _send_message(conn, result)
                except OSError:
                    return

    def close(self):
        if not self.closed:
            self.closed = True
            try:
                self.listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.listener.close()


class TCPStore(Store):
    """TCPStore(host_name, port, world_size=None, is_master=False, timeout=timedelta(seconds=300),
    wait_for_workers=True): the master runs the server; every store connects to it. With
    `wait_for_workers`, the master's constructor returns once world_size stores connected."""

    def __init__(
        self,
        host_name,
        port,
        world_size=None,
        is_master=False,
        timeout=default_store_timeout,
        wait_for_workers=True,
        multi_tenant=False,
    ):
        super().__init__(timeout)
        self.host = host_name
        self._server = _TCPStoreServer(host_name, port) if is_master else None
        self.port = self._server.port if self._server else int(port)
        self._lock = threading.Lock()
        self._sock = self._connect()
        if self._server is not None:  # serve until the others are done, even at exit
            atexit.register(self._finish)
        self._call("add", "__tcpstore_workers", 1)
        if is_master and wait_for_workers and world_size:
            deadline = time.monotonic() + self._timeout
            while int(self._call("get", "__tcpstore_workers", self._timeout)) < world_size:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"TCPStore: timed out waiting for {world_size} workers to connect")
                time.sleep(0.01)

    def _connect(self):
        deadline = time.monotonic() + self._timeout
        delay = 0.01
        while True:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=max(1.0, min(self._timeout, 30)))
                sock.settimeout(None)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return sock
            except OSError as e:
                if time.monotonic() + delay > deadline:
                    raise RuntimeError(
                        f"TCPStore: could not connect to {self.host}:{self.port} within {self._timeout:g} s: {e}"
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 1.0)

    def _call(self, op, *args):
        with self._lock:
            try:
                _send_message(self._sock, (op, args))
                ok, result = _receive_message(self._sock)
            except (OSError, ConnectionError, EOFError) as e:
                raise RuntimeError(f"TCPStore: lost the connection to {self.host}:{self.port} ({e})") from None
        if not ok:
            raise RuntimeError(result)
        return result

    def set(self, key, value):
        self._call("set", key, _as_bytes(value))

    def get(self, key):
        return self._call("get", key, self._timeout)

    def add(self, key, amount):
        return self._call("add", key, amount)

    def compare_set(self, key, expected_value, desired_value):
        return self._call("compare_set", key, _as_bytes(expected_value), _as_bytes(desired_value))

    def wait(self, keys, timeout=None):
        self._call("wait", list(keys), self._wait_seconds(timeout))

    def check(self, keys):
        return self._call("check", list(keys))

    def delete_key(self, key):
        return self._call("delete_key", key)

    def num_keys(self):
        return self._call("num_keys")

    def _finish(self):
        sock, self._sock = getattr(self, "_sock", None), None
        if sock is not None:
            sock.close()
        server, self._server = getattr(self, "_server", None), None
        if server is not None:
            server.linger()
            server.close()

    def __del__(self):
        self._finish()


class FileStore(Store):
    """FileStore(file_name, world_size=-1): a store in one file that the processes append
    records to under an exclusive lock. The last of world_size users to go removes it."""

    def __init__(self, file_name, world_size=-1):
        super().__init__()
        self.path = file_name
        self.world_size = world_size
        self._closed = False
        self.add("__filestore_users", 1)

    def _records(self, fd):
        os.lseek(fd, 0, os.SEEK_SET)
        data = b""
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            data += chunk
        table, offset = {}, 0
        while offset < len(data):
            klen, vlen = struct.unpack_from("<Iq", data, offset)
            offset += 12
            key = data[offset : offset + klen].decode()
            offset += klen
            if vlen < 0:
                table.pop(key, None)  # a deletion
            else:
                table[key] = data[offset : offset + vlen]
                offset += vlen
        return table

    def _locked(self, fn, exclusive=True):
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            return fn(fd)
        finally:
            os.close(fd)  # releases the lock

    @staticmethod
    def _append(fd, key, value):
        k = key.encode()
        record = struct.pack("<Iq", len(k), -1 if value is None else len(value)) + k + (value or b"")
        os.lseek(fd, 0, os.SEEK_END)
        os.write(fd, record)

    def set(self, key, value):
        value = _as_bytes(value)
        self._locked(lambda fd: self._append(fd, key, value))

    def add(self, key, amount):
        def update(fd):
            value = int(self._records(fd).get(key, b"0")) + int(amount)
            self._append(fd, key, str(value).encode())
            return value

        return self._locked(update)

    def compare_set(self, key, expected_value, desired_value):
        expected, desired = _as_bytes(expected_value), _as_bytes(desired_value)

        def update(fd):
            current = self._records(fd).get(key)
            if current is None and expected == b"" or current == expected:
                self._append(fd, key, desired)
                return desired
            return expected if current is None else current

        return self._locked(update)

    def _read(self):
        return self._locked(self._records, exclusive=False)

    def wait(self, keys, timeout=None):
        keys = list(keys)
        limit = self._wait_seconds(timeout)
        deadline = time.monotonic() + limit
        delay = 0.001
        while True:
            table = self._read()
            if all(k in table for k in keys):
                return table
            if time.monotonic() > deadline:
                raise RuntimeError(f"Wait timeout after {limit:g} s for the keys {[k for k in keys if k not in table]}")
            time.sleep(delay)
            delay = min(delay * 2, 0.05)

    def get(self, key):
        return self.wait([key])[key]

    def check(self, keys):
        table = self._read()
        return all(k in table for k in keys)

    def delete_key(self, key):
        def delete(fd):
            present = key in self._records(fd)
            if present:
                self._append(fd, key, None)
            return present

        return self._locked(delete)

    def num_keys(self):
        return len([k for k in self._read() if not k.startswith("__filestore")])

    def __del__(self):
        if getattr(self, "_closed", True) or not os.path.exists(self.path):
            return
        self._closed = True
        try:

            def leave(fd):
                users = int(self._records(fd).get("__filestore_users", b"1")) - 1
                self._append(fd, "__filestore_users", str(users).encode())
                if users <= 0 and self.world_size != -1 and self._records(fd).get("__filestore_done") is None:
                    self._append(fd, "__filestore_done", b"1")
                    os.unlink(self.path)

            self._locked(leave)
        except OSError:
            pass


class PrefixStore(Store):
    """PrefixStore(prefix, store): the keys of another store under "prefix/"."""

    def __init__(self, prefix, store):
        super().__init__(store.timeout if isinstance(store, Store) else default_store_timeout)
        self.prefix = prefix
        self.underlying_store = store

    def _key(self, key):
        return f"{self.prefix}/{key}"

    def set(self, key, value):
        self.underlying_store.set(self._key(key), value)

    def get(self, key):
        return self.underlying_store.get(self._key(key))

    def add(self, key, amount):
        return self.underlying_store.add(self._key(key), amount)

    def compare_set(self, key, expected_value, desired_value):
        return self.underlying_store.compare_set(self._key(key), expected_value, desired_value)

    def wait(self, keys, timeout=None):
        self.underlying_store.wait([self._key(k) for k in keys], timeout)

    def check(self, keys):
        return self.underlying_store.check([self._key(k) for k in keys])

    def delete_key(self, key):
        return self.underlying_store.delete_key(self._key(key))

    def num_keys(self):
        return self.underlying_store.num_keys()

    @property
    def timeout(self):
        return self.underlying_store.timeout

    def set_timeout(self, timeout):
        self.underlying_store.set_timeout(timeout)
