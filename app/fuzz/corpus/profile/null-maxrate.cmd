# Max rate on a net_null port: 64-byte UDP frames as fast as one worker goes.
# run: --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 -- --duration 5 --stats-period 1 --cmdline-file config/null-maxrate.cmd
set size 64
set flows 1
set rate all max
