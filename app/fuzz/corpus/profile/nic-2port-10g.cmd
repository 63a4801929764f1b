# Template: two 10G NIC ports (bind them first: scripts/sl-nic.sh bind, see
# docs/nics.md), one lcore each, 64-byte frames at line rate towards the
# device under test. Edit the PCI addresses and the peer MACs.
# needs: two NIC ports bound to vfio-pci
# run: -l 0-2 -a 0000:01:00.0 -a 0000:01:00.1 -- --duration 30 --stats-period 1 --cmdline-file config/nic-2port-10g.cmd
set eth-peer 0 02:00:00:00:00:10
set eth-peer 1 02:00:00:00:00:11
set map 1:0.0,2:1.0
set size 64
set rate all 100%
set tx-ip 198.18.0.1 198.19.0.1
