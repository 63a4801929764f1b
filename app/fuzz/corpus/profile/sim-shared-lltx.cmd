# Four lcores share the one TX queue of a simulated 10G NIC whose driver does
# its own locking (LLTX): no engine lock, LOCKED answers go to the backlog.
# The wire verifier checks order and loss; see docs/lltx.md.
# run: --no-huge -m 512 --no-pci --lcores 0,(1-4)@(0-1) -- --sim 10G,lltx=on,verify=on --duration 5 --stats-period 1 --cmdline-file config/sim-shared-lltx.cmd
set map 1-4:0.0
set size 64
set rate all max
