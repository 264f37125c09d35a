# Sourced by .ci/run and .ci/postgres: fails when a build or test log shows a
# warning in the project's own files (not in the packages it depends on).
check_warnings() {
  if grep -E "^(/|\./)?[^ ]*(Sources|Tests)/[^ ]*: warning:" "$1" | grep -v "/.build/"; then
    echo "error: $2 printed warnings (above); the project keeps zero" >&2
    exit 1
  fi
}
