# IMIX (64/594/1518 at 7:4:1) at 10G line rate on a simulated NIC, verified.
# run: --no-huge -m 512 --no-pci -l 0-1 -- --sim 10G,verify=on --duration 5 --stats-period 1 --cmdline-file config/sim-imix-10g.cmd
set imix
set rate all 100%
set flows 64
