#!/usr/bin/env bash
# Builds a PostgreSQL 15 image without a registry, for the chaos drills' manager replicas: the host's
# Debian PostgreSQL binaries, their share/ and lib/ directories, the shared libraries ldd finds for them,
# the time zone data, a shell and an entrypoint, tarred and `docker import`ed (as deploy/base-image does).
#
# Usage: chaos-tests/src/test/docker/postgres/make-postgres-image.sh [TAG]   (default: berth/postgres:local)
# Needs: postgresql-15 installed on the host (/usr/lib/postgresql/15, /usr/share/postgresql/15), docker.
# The container runs as the non-root user postgres (UID 65533); at its first start it makes a cluster
# with initdb (superuser berth, locale C, UTF8) and trusts connections from BERTH_PG_TRUST_CIDR only
# (the drill passes its own network's subnet; default: none but loopback).
set -euo pipefail

tag="${1:-berth/postgres:local}"
pg_lib=/usr/lib/postgresql/15
pg_share=/usr/share/postgresql/15
[ -x "$pg_lib/bin/postgres" ] || { echo "make-postgres-image: $pg_lib/bin/postgres is missing (apt-get install postgresql-15)" >&2; exit 1; }
command -v docker >/dev/null || { echo "make-postgres-image: docker is not installed" >&2; exit 1; }
here="$(cd "$(dirname "$0")" && pwd)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root"/{bin,etc,lib64,tmp,usr/lib/x86_64-linux-gnu,usr/share,var/lib/postgresql,var/run/postgresql,home/postgres}
chmod 1777 "$root/tmp"

mkdir -p "$root$pg_lib/bin" "$root$pg_share"
for binary in postgres initdb pg_ctl pg_isready psql; do
  cp -L "$pg_lib/bin/$binary" "$root$pg_lib/bin/$binary"
done
cp -a "$pg_lib/lib" "$root$pg_lib/lib"
rm -rf "$root$pg_lib/lib/bitcode" "$root$pg_lib/lib/llvmjit"*
cp -a "$pg_share/." "$root$pg_share/"
# Debian builds with --with-system-tzdata: the time zone names come from the host's zoneinfo.
cp -a /usr/share/zoneinfo "$root/usr/share/zoneinfo"

# The loader and every library the binaries and the modules link against, as real files.
{
  for binary in "$root$pg_lib"/bin/*; do ldd "$pg_lib/bin/$(basename "$binary")"; done
  for module in "$root$pg_lib"/lib/*.so; do ldd "$pg_lib/lib/$(basename "$module")" 2>/dev/null || true; done
  ldd /bin/dash
} | awk '/=> \//{print $3}' | sort -u | while read -r lib; do
  cp -L "$lib" "$root/usr/lib/x86_64-linux-gnu/$(basename "$lib")"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/ld-linux-x86-64.so.2"
ln -s usr/lib "$root/lib"
cp -L /bin/dash "$root/bin/sh"
for tool in cat; do cp -L "$(command -v $tool)" "$root/bin/$tool"; done

printf 'root:x:0:0:root:/root:/bin/sh\npostgres:x:65533:65533:postgres:/home/postgres:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\npostgres:x:65533:\n' > "$root/etc/group"
install -m 0755 "$here/entrypoint.sh" "$root/entrypoint.sh"
chown -R 65533:65533 "$root/var/lib/postgresql" "$root/var/run/postgresql" "$root/home/postgres"

# Smoke test inside the new root: postgres must start with only the copied files.
if [ "$(id -u)" = 0 ] && command -v chroot >/dev/null; then
  chroot "$root" "$pg_lib/bin/postgres" --version >/dev/null \
    || { echo "make-postgres-image: postgres does not start inside the image root" >&2; exit 1; }
fi

tar --numeric-owner -C "$root" -cf "$work/rootfs.tar" .
docker import \
  --change "ENV PATH=$pg_lib/bin:/bin" \
  --change 'ENV LANG=C.UTF-8' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'USER postgres' \
  --change 'EXPOSE 5432' \
  --change 'ENTRYPOINT ["/entrypoint.sh"]' \
  "$work/rootfs.tar" "$tag" >/dev/null
echo "make-postgres-image: imported $tag" >&2
