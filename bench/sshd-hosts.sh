#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Starts (or stops) N real OpenSSH servers on 127.0.0.2.. port 2222 for benchmarks, as the test
# fixture SshHosts does: keys made per run, login user briskssh, client config naming them h1..hN.
#   bench/sshd-hosts.sh start DIR [N]   -> prints the --ssh command to use ("ssh -F DIR/ssh_config")
#   bench/sshd-hosts.sh stop DIR        -> kills the daemons and every session under them
set -euo pipefail
cmd=$1 dir=$2 n=${3:-3} user=briskssh
case $cmd in
start)
  mkdir -p /run/sshd "$dir"; chmod 755 "$dir"
  id -u $user >/dev/null 2>&1 || useradd -m -s /bin/bash $user
  usermod -p '*' $user
  [ -f "$dir/host_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -f "$dir/host_ed25519"
  [ -f "$dir/client_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -f "$dir/client_ed25519"
  cp "$dir/client_ed25519.pub" "$dir/authorized_keys"; chmod 644 "$dir/authorized_keys"
  : > "$dir/ssh_config"
  for i in $(seq 1 "$n"); do
    addr=127.0.0.$((i + 1))
    cat > "$dir/sshd_config_h$i" <<CONF
ListenAddress $addr
Port 2222
HostKey $dir/host_ed25519
PidFile $dir/sshd_h$i.pid
AuthorizedKeysFile $dir/authorized_keys
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
AllowUsers $user
KexAlgorithms curve25519-sha256
LogLevel ERROR
CONF
    setsid /usr/sbin/sshd -D -e -f "$dir/sshd_config_h$i" >"$dir/sshd_h$i.log" 2>&1 &
    echo $! > "$dir/daemon_h$i.pid"
    cat >> "$dir/ssh_config" <<CONF
Host h$i
  HostName $addr
  Port 2222
  User $user
  IdentityFile $dir/client_ed25519
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  KexAlgorithms curve25519-sha256
  BatchMode yes
CONF
  done
  for i in $(seq 1 "$n"); do
    for _ in $(seq 1 100); do
      (exec 3<>/dev/tcp/127.0.0.$((i + 1))/2222) 2>/dev/null && break
      sleep 0.05
    done
  done
  echo "ssh -F $dir/ssh_config"
  ;;
stop)
  for f in "$dir"/daemon_h*.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    # the daemon leads its own session (setsid): kill it and every session process under it
    pkill -KILL -s "$pid" 2>/dev/null || true
    pkill -KILL -P "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$f"
  done
  ;;
esac
