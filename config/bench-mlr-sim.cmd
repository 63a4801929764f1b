# MLRsearch (RFC 9971): NDR (loss 0) and PDR (0.5 %) per RFC 2544 frame size
# and IMIX, then latency at 0/10/50/90 % of the PDR. Against the sim DUT:
#   sluice --no-huge -m 1024 --no-pci -l 0-1 -- \
#     --sim 10G,dut=0,capacity=1Mpps,queue=4096 --cmdline-file config/bench-mlr-sim.cmd --json bench.json
# needs: minutes of trials (a full benchmark, not a 1 s run); app/test/sh/test_bench.sh runs a short search
# On a real DUT replace the --sim by the ports (docs/benchmarking.md); keep
# CSIT's durations (initial 1 s, final 1 s, sum 21 s, exceed 0.5) or set yours.
bench mlr min=1%,max=100%,width=0.005,loss=0:0.005,exceed=0.5,initial=1,final=1,sum=21,lat=5,sizes=rfc2544
show bench
