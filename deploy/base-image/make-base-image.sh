#!/usr/bin/env bash
# Builds a minimal Java base image without a registry: a jlinked JRE from the local JDK plus the
# few host libraries it links against, tarred and `docker import`ed.
#
# Usage: deploy/base-image/make-base-image.sh [TAG]        (default tag: berth/base:local)
# Env:   JAVA_HOME  the JDK to jlink from (needs its jmods/; default: the JDK of `javac` on PATH)
#        BERTH_JRE_MODULES  comma-separated modules (default below, checked with jdeps against
#                           the manager's runtime class path)
# Then:  docker build -f deploy/manager/Dockerfile --build-arg BASE_IMAGE=berth/base:local .
set -euo pipefail

tag="${1:-berth/base:local}"

# java.management/jdk.management: Hazelcast and Micrometer JVM metrics; java.naming + jdk.naming.dns:
# Netty's DNS and JNDI lookups; java.sql: Jackson's java.sql.Date support; jdk.unsupported:
# sun.misc.Unsafe for Netty, Hazelcast and Jackson; jdk.crypto.ec: TLS to API servers with EC keys;
# java.desktop: java.beans, which SnakeYAML needs to read a YAML request body (without it every YAML POST to
# the manager fails with NoClassDefFoundError: java/beans/IntrospectionException; the chaos drills found it);
# java.se: the manager image starts with `--add-modules java.se` (the flags Hazelcast asks for), which fails
# at boot ("Module java.se not found") unless the runtime has it; the chaos drills found it. jdk.localedata is
# left out (English only).
default_modules="java.se,java.base,java.logging,java.management,jdk.management,java.naming,jdk.naming.dns,java.net.http,java.sql,java.xml,java.security.jgss,jdk.unsupported,jdk.crypto.ec,jdk.zipfs,java.desktop"
modules="${BERTH_JRE_MODULES:-$default_modules}"

if [ -z "${JAVA_HOME:-}" ]; then
  javac_path="$(command -v javac || true)"
  [ -n "$javac_path" ] || { echo "make-base-image: no javac on PATH; set JAVA_HOME to a JDK" >&2; exit 1; }
  JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$javac_path")")")"
fi
if [ ! -d "$JAVA_HOME/jmods" ]; then
  echo "make-base-image: $JAVA_HOME/jmods is missing; install the JDK's jmods (Debian: openjdk-17-jdk) or set JAVA_HOME" >&2
  exit 1
fi
command -v docker >/dev/null || { echo "make-base-image: docker is not installed" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root"/{bin,etc,lib64,opt/java,tmp,var/lib/berth,usr/lib/x86_64-linux-gnu}
chmod 1777 "$root/tmp"

echo "make-base-image: jlinking a JRE with $modules" >&2
"$JAVA_HOME/bin/jlink" \
  --module-path "$JAVA_HOME/jmods" \
  --add-modules "$modules" \
  --strip-debug --no-man-pages --no-header-files \
  --compress=2 \
  --output "$root/opt/java/openjdk"

# The dynamic loader and the libraries the JRE links against, taken from the host and resolved
# through symlinks so the image holds real files at the names the loader looks for.
libdir="/lib/x86_64-linux-gnu"
for lib in libc.so.6 libgcc_s.so.1 libm.so.6 libstdc++.so.6 libz.so.1 libpthread.so.0 libdl.so.2 librt.so.1; do
  if [ -e "$libdir/$lib" ]; then
    cp -L "$libdir/$lib" "$root/usr/lib/x86_64-linux-gnu/$lib"
  elif [ "$lib" = libc.so.6 ] || [ "$lib" = libz.so.1 ]; then
    echo "make-base-image: $libdir/$lib is missing on this host" >&2
    exit 1
  fi
done
cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/ld-linux-x86-64.so.2"
ln -s usr/lib "$root/lib"
# A shell for `docker exec` and for scripts; the images themselves use exec-form ENTRYPOINTs.
cp -L /bin/dash "$root/bin/sh"

# Names for the non-root user the Berth images run as (UID/GID 65532), and for root.
printf 'root:x:0:0:root:/root:/bin/sh\nnonroot:x:65532:65532:nonroot:/home/nonroot:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$root/etc/group"
mkdir -p "$root/home/nonroot"
chown -R 65532:65532 "$root/home/nonroot" "$root/var/lib/berth" 2>/dev/null || true

# Smoke test before importing: inside the new root, java must start with only the copied files.
# (No /proc in a bare chroot, so the loader cannot expand $ORIGIN: point it at the JRE's lib/.)
if [ "$(id -u)" = 0 ] && command -v chroot >/dev/null; then
  LD_LIBRARY_PATH=/opt/java/openjdk/lib chroot "$root" /opt/java/openjdk/bin/java -XX:-UsePerfData -version >/dev/null 2>&1 \
    || { echo "make-base-image: the jlinked JRE does not start inside the image root" >&2; exit 1; }
fi

tar --numeric-owner -C "$root" -cf "$work/rootfs.tar" .
docker import \
  --change 'ENV JAVA_HOME=/opt/java/openjdk' \
  --change 'ENV PATH=/opt/java/openjdk/bin:/usr/bin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'WORKDIR /' \
  "$work/rootfs.tar" "$tag"
echo "make-base-image: imported $tag" >&2
