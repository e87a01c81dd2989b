#!/usr/bin/env bash
# How long a quickstart takes to stop once a job ran: starts `bin/berth quickstart --port PORT` in REPO (a clone, built),
# runs examples/jobs/sample-job.yaml until its Workload is admitted, sends SIGTERM to the whole process group (what a
# pod deletion sends; a script's background job ignores SIGINT, so Ctrl-C cannot be replayed from here) and prints the
# seconds until no process of the group is left, then how many "did not stop" or "cut off" lines the log has.
#   benchmarks/quickstart-stop-time.sh <repo> <port>
set -u
repo=$1
port=$2
cd "$repo"
rm -rf .berth
log=$(mktemp /tmp/quickstart-stop-XXXX.log)
setsid bin/berth quickstart --port "$port" > "$log" 2>&1 < /dev/null &
group=$(ps -o pgid= -p $! | tr -d ' ')
export KUBECONFIG=.berth/kubeconfig
for _ in $(seq 1 240); do
  [ -f .berth/kubeconfig ] && kubectl get --raw /readyz > /dev/null 2>&1 && break
  sleep 0.5
done
kubectl create -f examples/jobs/sample-job.yaml > /dev/null
for _ in $(seq 1 120); do
  kubectl get workloads -n team-a 2> /dev/null | grep -q True && break
  sleep 0.5
done
sleep 2
start=$(date +%s.%N)
kill -TERM -- "-$group"
while pgrep -g "$group" > /dev/null; do sleep 0.05; done
end=$(date +%s.%N)
echo "stopped in $(echo "$end - $start" | bc) s; log lines saying did not stop or cut off: $(grep -c 'did not stop\|cut off' "$log")"
