// Progress of long runs on stderr: silent for the first seconds (most runs
// end before), then a line every few seconds, so that a person watching a
// multi-gigabyte trace being read, or a large block being simulated, sees it
// advance. stdout, where the results and the JSON go, is untouched.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace gpuwcet::cli {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  // `what`: "reading big.traceg", "analysing blocks", ...; `unit`: how the
  // counts are shown ("bytes" as MB, anything else as a plain count).
  Progress(std::string what, std::string unit)
      : what_(std::move(what)), unit_(std::move(unit)), start_(Clock::now()), last_(start_) {}

  // `done` of `total` so far (total 0: unknown, a stream); prints when the
  // run has lasted kQuiet and the last line is kEvery old, and at the end
  // once anything was printed.
  void operator()(std::size_t done, std::size_t total) {
    const Clock::time_point now = Clock::now();
    const bool end = total != 0 && done >= total;
    if (!(end && printed_) && (now - start_ < kQuiet || now - last_ < kEvery)) return;
    last_ = now;
    printed_ = true;
    const double share = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
    if (total == 0) {
      fmt::print(stderr, "{}: {:.0f} {} so far\n", what_,
                 unit_ == "bytes" ? static_cast<double>(done) / 1e6 : static_cast<double>(done),
                 unit_ == "bytes" ? "MB" : unit_);
    } else if (unit_ == "bytes") {
      fmt::print(stderr, "{}: {:.0f} of {:.0f} MB ({:.0f}%)\n", what_, static_cast<double>(done) / 1e6,
                 static_cast<double>(total) / 1e6, 100 * share);
    } else {
      fmt::print(stderr, "{}: {} of {} {} ({:.0f}%)\n", what_, done, total, unit_, 100 * share);
    }
  }

 private:
  static constexpr Clock::duration kQuiet = std::chrono::seconds(2);
  static constexpr Clock::duration kEvery = std::chrono::seconds(2);
  std::string what_;
  std::string unit_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool printed_ = false;
};

}  // namespace gpuwcet::cli
