#!/bin/sh
# Stands in for a broken `rec` in the hooks/rec-hook tests: complains on stderr and fails.
echo "rec: something broke" >&2
exit 3
