#!/usr/bin/env bash
# Runs arvrc on every bad input of expected.txt and checks the outcome: exit
# code 1, the expected message (with the file's name), no output file, the
# input unchanged. Prints one line per case; exits 1 if any case fails.
#
#   tests/bad-inputs/check.sh ARVRC SOURCE_DIR WORK_DIR
set -uo pipefail
arvrc=${1:?usage: check.sh ARVRC SOURCE_DIR WORK_DIR}
src=${2:?source dir}
work=${3:?work dir}
here="$src/tests/bad-inputs"
rm -rf "$work" && mkdir -p "$work"
failures=0
cases=0
while IFS='|' read -r file use fragment; do
  file=$(echo "$file" | sed "s/^ *//; s/ *$//")
  use=$(echo "$use" | sed "s/^ *//; s/ *$//")
  fragment=$(echo "$fragment" | sed 's/^ *//; s/ *$//')
  [ -z "$file" ] || [[ "$file" == \#* ]] && continue
  cases=$((cases + 1))
  input="$here/$file"
  name=$(basename "$file")
  before=$(sha256sum "$input" | cut -d' ' -f1)
  bc=("$arvrc" run "$src/examples/brightness_contrast.arvr" -i "$input")
  case "$use" in
    build) out="$work/$name.ptx"
           cmd=("$arvrc" build "$input" -o "$out") ;;
    run)   out="$work/$name.png"
           cmd=("${bc[@]}" -o "$out" --target cpu) ;;
    pfm)   out="$work/$name.out.pfm"
           cmd=("$arvrc" run "$src/tests/lit/Driver/Inputs/float-images.arvr" --kernel scale -i "$input" -o "$out" --target cpu) ;;
    nv12)  out="$work/$name.png"
           cmd=("$arvrc" run "$src/examples/nv12_to_rgb.arvr" -i "$input" -o "$out" --target cpu) ;;
    # A good image, a parameter of the wrong type / one that does not exist.
    badparam) out="$work/$name-badparam.png"
           cmd=("${bc[@]}" -o "$out" --target cpu -p gain=bright) ;;
    noparam) out="$work/$name-noparam.png"
           cmd=("${bc[@]}" -o "$out" --target cpu -p contrast=2) ;;
    # The output in a folder that does not exist, or in one that cannot be
    # written (made read-only; as root, which ignores that, /proc, where no
    # file can be made).
    nodir) out="$work/no/such/folder/$name.png"
           cmd=("${bc[@]}" -o "$out" --target cpu) ;;
    readonly)
           if [ "$(id -u)" -eq 0 ]; then
             out="/proc/arvrc-bad-input-$name.png"
           else
             mkdir -p "$work/readonly" && chmod 555 "$work/readonly"
             out="$work/readonly/$name.png"
           fi
           cmd=("${bc[@]}" -o "$out" --target cpu) ;;
    *)     echo "FAIL $file: unknown use '$use'"; failures=$((failures + 1)); continue ;;
  esac
  timeout 60 "${cmd[@]}" >"$work/$name-$use.out" 2>"$work/$name-$use.err"
  code=$?
  problems=()
  [ "$code" -eq 1 ] || problems+=("exit code $code, not 1")
  grep -qF -- "$fragment" "$work/$name-$use.err" || problems+=("message not found")
  [ ! -e "$out" ] || problems+=("an output was written")
  ls "$work" | grep -q "arvrc-tmp" && problems+=("a temporary file was left")
  [ "$(sha256sum "$input" | cut -d' ' -f1)" = "$before" ] || problems+=("the input changed")
  if [ ${#problems[@]} -eq 0 ]; then
    echo "ok   $file ($use): $fragment"
  else
    echo "FAIL $file ($use): ${problems[*]}; it said: $(head -c 300 "$work/$name-$use.err")"
    failures=$((failures + 1))
  fi
done <"$here/expected.txt"
echo "$cases bad inputs, $failures failed"
[ "$failures" -eq 0 ]
