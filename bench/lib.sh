# Shared by the load scripts in this folder (sourced): a free loopback port and a process's CPU time.

# A 127.0.0.1 TCP port nothing is bound to at the time of the call.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

CLK_TCK=$(getconf CLK_TCK)
# User + system clock ticks of every thread of process $1 (/proc/<pid>/stat); divide by CLK_TCK for seconds.
cpu_ticks() {
  local f
  f=$(sed 's/^.*) //' "/proc/$1/stat")
  set -- $f
  echo $((${12} + ${13}))
}
