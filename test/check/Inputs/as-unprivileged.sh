# Runs a command as nobody when run as root (root may write any file), else as is.
if [ "$(id -u)" = 0 ]; then
  exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent "$@"
fi
exec "$@"
