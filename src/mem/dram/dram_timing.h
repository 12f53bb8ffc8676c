#pragma once
// The timing parameters of one DRAM channel, in DRAM clocks as datasheets give them. The channel
// converts them once, at construction, into its own time unit (dram_clock.h). The defaults are of
// the HBM2 class at a 1 GHz clock (2 Gb/s per pin): approximate, round numbers, not one part's.
//
// Not modelled: refresh, the four-activation window (tFAW), bank groups' separate tCCD_S/tCCD_L
// (one tCCD for the whole channel), separate row and column command buses (one command a clock).
#include <cstdint>

namespace lockstep::mem {

struct DramTiming {
  uint32_t tRCD = 14;  // activate -> read/write to the opened row
  uint32_t tRP = 14;   // precharge -> the next activate of that bank
  uint32_t tRAS = 34;  // activate -> precharge of the same bank
  uint32_t tCL = 14;   // read command -> first data on the bus
  uint32_t tWL = 4;    // write command -> first data on the bus
  uint32_t tCCD = 2;   // column command -> the next column command (any bank)
  // Optional (0: not modelled).
  // The bus turnarounds are measured on the data bus, as the idle gap a change of direction
  // needs between one burst's end and the next one's start (a datasheet's tWTR, counted to the
  // read command, is this tWTR minus tCL).
  uint32_t tRTW = 0;  // a read's data end -> a write's data start
  uint32_t tWTR = 0;  // a write's data end -> a read's data start
  uint32_t tRRD = 0;  // activate -> an activate of another bank
  uint32_t tRTP = 0;  // read command -> precharge of the same bank
  uint32_t tWR = 0;   // end of a write's data -> precharge of the same bank (write recovery)
};

}  // namespace lockstep::mem
