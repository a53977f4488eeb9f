#!/usr/bin/env bash
# Makes the Secret the dev overlay requires and the repository never ships: gpumeter-alertmanager-webhook, the
# bearer token Alertmanager sends to alert-service's webhook (key "token", 256 random bits). alert-service does
# not start without it, and its webhook refuses every call without a token.
#
#   k8s/overlays/dev/generate-secrets.sh [--namespace gpumeter-dev] [--alertmanager-namespace monitoring] [--dry-run]
#
# Run it once before `kubectl apply -k k8s/overlays/dev`. A Secret that exists is kept, so the token Alertmanager
# already has stays valid; its token is copied into a namespace that lacks it. To rotate, delete the Secret in
# every namespace and run this again. --dry-run prints the Secrets it would create and contacts no cluster.
set -euo pipefail

namespace=gpumeter-dev
alertmanager_namespace=
dry_run=false
name=gpumeter-alertmanager-webhook

while [[ $# -gt 0 ]]; do
  case $1 in
    --namespace) namespace=${2:?--namespace needs a value}; shift 2 ;;
    --alertmanager-namespace) alertmanager_namespace=${2:?--alertmanager-namespace needs a value}; shift 2 ;;
    --dry-run) dry_run=true; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "generate-secrets.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
done

# The token goes through a file only its owner can read, never through a command line that ps would show.
umask 077
token_file=$(mktemp)
trap 'rm -f "$token_file"' EXIT

existing_token() {
  kubectl -n "$1" get secret "$name" -o jsonpath='{.data.token}' 2>/dev/null | base64 -d
}

secret_yaml() {
  kubectl -n "$1" create secret generic "$name" --from-file=token="$token_file" --dry-run=client -o yaml
}

token=
if ! $dry_run; then
  for ns in "$namespace" $alertmanager_namespace; do
    token=$(existing_token "$ns" || true)
    [[ -n $token ]] && break
  done
fi
if [[ -n $token ]]; then
  printf '%s' "$token" > "$token_file"
else
  head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' > "$token_file"
fi

for ns in "$namespace" $alertmanager_namespace; do
  if $dry_run; then
    echo "---"
    secret_yaml "$ns"
  elif [[ -n $(existing_token "$ns" || true) ]]; then
    echo "Secret $ns/$name exists; kept"
  else
    kubectl create namespace "$ns" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
    secret_yaml "$ns" | kubectl apply -f - >/dev/null
    echo "Secret $ns/$name created"
  fi
done
