#!/usr/bin/env bash
# Packs the shared libraries that arvrc's video module (libarvr_video.so:
# FFmpeg's libavformat, libavcodec, libswscale and what they need) loads,
# from this Debian, into dist/ffmpeg-libs.tar.xz, for a machine that lacks
# them (the GPU machine). Unpacked into the bundle's lib/arvrc/ folder, the
# module finds them there (its RPATH is $ORIGIN). The C and C++ runtimes
# are left out: the machine's own (as new or newer) serve.
#   scripts/pack-ffmpeg-libs.sh [BUILD_DIR]   (default build-static)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
module="$root/${1:-build-static}/lib/arvrc/libarvr_video.so"
[ -f "$module" ] || { echo "error: $module: build it first" >&2; exit 1; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
ldd "$module" | awk '/=> \// {print $3}' | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*|\
    libstdc++.so.*|libgcc_s.so.*) continue ;;
  esac
  cp -L "$lib" "$stage/"
done
mkdir -p "$root/dist"
tar -C "$stage" -cf - . | xz -T2 -9 > "$root/dist/ffmpeg-libs.tar.xz"
echo "dist/ffmpeg-libs.tar.xz: $(($(stat -c %s "$root/dist/ffmpeg-libs.tar.xz") / 1024 / 1024)) MiB, $(ls "$stage" | wc -l) libraries"
