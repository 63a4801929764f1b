# RFC 2544 throughput: binary search per frame size (loss tolerance 0, width
# 0.5 %, 1 s search trials, a 60 s final trial at the result), then latency.
#   sluice --no-huge -m 1024 --no-pci -l 0-1 -- \
#     --sim 10G,dut=0,capacity=1Mpps,queue=4096 --cmdline-file config/bench-rfc2544-sim.cmd --json bench.json
# needs: minutes of trials (a full benchmark, not a 1 s run); app/test/sh/test_bench.sh runs a short search
bench rfc2544 min=1%,max=100%,width=0.005,loss=0,initial=1,final=60,lat=5,sizes=rfc2544
show bench
